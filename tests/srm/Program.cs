// Reads type signatures (hex, one per line) from stdin and decodes each with
// System.Reflection.Metadata's SignatureDecoder, the reference for where a
// SENTINEL belongs (docs/type-text.md, "Function pointers"). Prints one line
// per input, the type in gdmap's type text (docs/type-text.md):
//   ok<TAB>TEXT            every byte read
//   left<TAB>N<TAB>TEXT    N bytes not read (SRM reads no trailing sentinel)
//   error<TAB>MESSAGE      SRM refuses the bytes
using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Globalization;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

sealed class GdmapText : ISignatureTypeProvider<string, object?>
{
    public string GetPrimitiveType(PrimitiveTypeCode code) => code switch
    {
        PrimitiveTypeCode.Void => "void",
        PrimitiveTypeCode.Boolean => "bool",
        PrimitiveTypeCode.Char => "char",
        PrimitiveTypeCode.SByte => "int8",
        PrimitiveTypeCode.Byte => "uint8",
        PrimitiveTypeCode.Int16 => "int16",
        PrimitiveTypeCode.UInt16 => "uint16",
        PrimitiveTypeCode.Int32 => "int32",
        PrimitiveTypeCode.UInt32 => "uint32",
        PrimitiveTypeCode.Int64 => "int64",
        PrimitiveTypeCode.UInt64 => "uint64",
        PrimitiveTypeCode.Single => "float32",
        PrimitiveTypeCode.Double => "float64",
        PrimitiveTypeCode.String => "string",
        PrimitiveTypeCode.TypedReference => "typedref",
        PrimitiveTypeCode.IntPtr => "native int",
        PrimitiveTypeCode.UIntPtr => "native uint",
        PrimitiveTypeCode.Object => "object",
        _ => throw new BadImageFormatException($"primitive {code}"),
    };

    // rawTypeKind is 0x11 (VALUETYPE) or 0x12 (CLASS) after those bytes and
    // GENERICINST, 0 in a custom modifier, where gdmap prints the bare token.
    static string Named(EntityHandle handle, byte rawTypeKind)
    {
        string token = "0x" + MetadataTokens.GetToken(handle).ToString("x8", CultureInfo.InvariantCulture);
        return rawTypeKind switch { 0x11 => "valuetype " + token, 0x12 => "class " + token, _ => token };
    }
    public string GetTypeFromDefinition(MetadataReader r, TypeDefinitionHandle h, byte kind) => Named(h, kind);
    public string GetTypeFromReference(MetadataReader r, TypeReferenceHandle h, byte kind) => Named(h, kind);
    public string GetTypeFromSpecification(MetadataReader r, object? c, TypeSpecificationHandle h, byte kind) => Named(h, kind);

    public string GetSZArrayType(string element) => element + "[]";
    public string GetPointerType(string element) => element + "*";
    public string GetByReferenceType(string element) => element + "&";
    public string GetPinnedType(string element) => element + " pinned";
    public string GetGenericTypeParameter(object? c, int index) => "!" + index;
    public string GetGenericMethodParameter(object? c, int index) => "!!" + index;
    public string GetModifiedType(string modifier, string unmodified, bool required) =>
        $"{unmodified} {(required ? "modreq" : "modopt")}({modifier})";
    public string GetGenericInstantiation(string generic, ImmutableArray<string> arguments) =>
        $"{generic}<{string.Join(", ", arguments)}>";

    public string GetArrayType(string element, ArrayShape shape)
    {
        var dimensions = new List<string>();
        for (int i = 0; i < shape.Rank; i++)
        {
            int? lower = i < shape.LowerBounds.Length ? shape.LowerBounds[i] : null;
            int? size = i < shape.Sizes.Length ? shape.Sizes[i] : null;
            dimensions.Add((lower, size) switch
            {
                (int lo, int n) => $"{lo}...{lo + n - 1}",
                (int lo, null) => $"{lo}...",
                (null, int n) => $"{n}",
                _ => "",
            });
        }
        string text = string.Join(",", dimensions);
        return $"{element}[{(text.Length == 0 && shape.Rank == 1 ? "..." : text)}]";
    }

    public string GetFunctionPointerType(MethodSignature<string> m)
    {
        var words = new List<string> { "method" };
        if (m.Header.IsInstance) words.Add("instance");
        if (m.Header.HasExplicitThis) words.Add("explicit");
        if (m.Header.IsGeneric) words.Add($"generic({m.GenericParameterCount})");
        string? kind = m.Header.CallingConvention switch
        {
            SignatureCallingConvention.Default => null,
            SignatureCallingConvention.CDecl => "unmanaged cdecl",
            SignatureCallingConvention.StdCall => "unmanaged stdcall",
            SignatureCallingConvention.ThisCall => "unmanaged thiscall",
            SignatureCallingConvention.FastCall => "unmanaged fastcall",
            SignatureCallingConvention.VarArgs => "vararg",
            SignatureCallingConvention.Unmanaged => "unmanaged",
            var other => throw new BadImageFormatException($"calling convention {other}"),
        };
        if (kind != null) words.Add(kind);
        words.Add(m.ReturnType);
        var parameters = new List<string>();
        for (int i = 0; i < m.ParameterTypes.Length; i++)
        {
            if (i == m.RequiredParameterCount) parameters.Add("...");
            parameters.Add(m.ParameterTypes[i]);
        }
        return $"{string.Join(" ", words)} *({string.Join(", ", parameters)})";
    }
}

static class Program
{
    static unsafe int Main()
    {
        var decoder = new SignatureDecoder<string, object?>(new GdmapText(), null!, null);
        string? line;
        while ((line = Console.In.ReadLine()) != null)
        {
            byte[] bytes = Convert.FromHexString(line.Trim());
            fixed (byte* start = bytes)
            {
                var reader = new BlobReader(start, bytes.Length);
                try
                {
                    string text = decoder.DecodeType(ref reader);
                    Console.WriteLine(reader.RemainingBytes == 0 ? $"ok\t{text}" : $"left\t{reader.RemainingBytes}\t{text}");
                }
                catch (BadImageFormatException e)
                {
                    Console.WriteLine($"error\t{e.Message}");
                }
            }
        }
        return 0;
    }
}
