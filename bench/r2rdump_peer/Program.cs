// r2rdump_peer: for every precompiled method body of a ReadyToRun image that
// has debug info, prints one JSON line: token, instantiation (if any), code
// size and the bounds as R2RDump's library decodes them.
//
// Split of the work, so a comparison with gdmap says something:
//  - R2RDump's library (ILCompiler.Reflection.ReadyToRun, given by path) does
//    all byte-level decoding: NativeReader (nativeformat unsigned/compressed
//    numbers), NativeArray (MethodDefEntryPoints, DebugInfo),
//    NativeHashtable (InstanceMethodEntryPoints) and DebugInfo (the nibble
//    and the R2R 16 bit-packed bounds).
//  - This driver only walks the tables as R2RDump's ReadyToRunReader does:
//    the READYTORUN_HEADER and its sections, the entry-point cells (runtime
//    function index, fixup lookback), the runtime functions for code size, and
//    the method signature of an instance entry (to step over it and to print
//    its instantiation).
// Usage: r2rdump_peer [-o OUT.jsonl] [--blobs] IMAGE...   (non-R2R files are skipped)
//   --blobs adds "blob": the bounds bytes as hex (cbBounds of them), as the library saw them.
using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Runtime.CompilerServices;
using System.Text;
using ILCompiler.Reflection.ReadyToRun;
using R2R = ILCompiler.Reflection.ReadyToRun;

internal static class Program
{
    // READYTORUN_SECTION_* ids (readytorun.h).
    private const int SectionRuntimeFunctions = 102;
    private const int SectionMethodDefEntryPoints = 103;
    private const int SectionDebugInfo = 105;
    private const int SectionInstanceMethodEntryPoints = 109;
    private const uint R2RSignature = 0x00525452; // "RTR"

    private static int Main(string[] args)
    {
        string outPath = null;
        bool blobs = false;
        var images = new List<string>();
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "-o" && i + 1 < args.Length) outPath = args[++i];
            else if (args[i] == "--blobs") blobs = true;
            else images.Add(args[i]);
        }
        if (images.Count == 0)
        {
            Console.Error.WriteLine("usage: r2rdump_peer [-o OUT.jsonl] [--blobs] IMAGE...");
            return 2;
        }
        using Stream sink = outPath == null ? Console.OpenStandardOutput() : File.Create(outPath);
        using var output = new StreamWriter(sink, new UTF8Encoding(false), 1 << 16);
        int failures = 0;
        foreach (string image in images)
        {
            try
            {
                DumpImage(image, output, blobs);
            }
            catch (Exception e) when (e is BadImageFormatException || e is InvalidOperationException || e is ArgumentOutOfRangeException)
            {
                Console.Error.WriteLine($"{image}: {e.Message}");
                failures++;
            }
        }
        return failures == 0 ? 0 : 1;
    }

    private sealed class Image
    {
        public byte[] Bytes;
        public PEReader PE;
        public NativeReader Reader;
        public R2R.ReadyToRunReader Host;
        public Dictionary<int, (int Offset, int Size)> Sections = new();

        public int RvaToOffset(int rva)
        {
            foreach (SectionHeader s in PE.PEHeaders.SectionHeaders)
            {
                if (rva >= s.VirtualAddress && rva < s.VirtualAddress + Math.Max(s.VirtualSize, s.SizeOfRawData))
                    return rva - s.VirtualAddress + s.PointerToRawData;
            }
            throw new BadImageFormatException($"RVA 0x{rva:x} is in no section");
        }
    }

    private static void DumpImage(string path, StreamWriter output, bool blobs)
    {
        var img = new Image { Bytes = File.ReadAllBytes(path) };
        byte[] bytes = img.Bytes;
        img.PE = new PEReader(Unsafe.As<byte[], ImmutableArray<byte>>(ref bytes));
        CorHeader cor = img.PE.PEHeaders.CorHeader;
        if (cor == null || cor.ManagedNativeHeaderDirectory.Size == 0 || (cor.Flags & CorFlags.ILLibrary) == 0)
        {
            Console.Error.WriteLine($"{path}: skipped: not a non-composite ReadyToRun image");
            return;
        }
        // R2RDump reads the image through a stream; so does this driver.
        img.Reader = new NativeReader(new MemoryStream(bytes, writable: false));
        int header = img.RvaToOffset(cor.ManagedNativeHeaderDirectory.RelativeVirtualAddress);
        int at = header;
        if (img.Reader.ReadUInt32(ref at) != R2RSignature) throw new BadImageFormatException("no READYTORUN_HEADER");
        int major = img.Reader.ReadUInt16(ref at);
        int minor = img.Reader.ReadUInt16(ref at);
        img.Reader.ReadUInt32(ref at); // flags
        int sectionCount = img.Reader.ReadInt32(ref at);
        for (int i = 0; i < sectionCount; i++)
        {
            int type = img.Reader.ReadInt32(ref at);
            int rva = img.Reader.ReadInt32(ref at);
            int size = img.Reader.ReadInt32(ref at);
            img.Sections[type] = (img.RvaToOffset(rva), size);
        }
        Machine machine = TargetMachine(img.PE.PEHeaders.CoffHeader.Machine);
        img.Host = new R2R.ReadyToRunReader(img.Reader, machine, new R2R.ReadyToRunHeader(major, minor));

        // Runtime functions: x64 has begin, end, unwind (12 bytes); the others
        // begin and unwind only (8), whose length needs the unwind codes: no
        // code size there.
        int rfSize = machine == Machine.Amd64 ? 12 : 8;
        int rfCount = img.Sections.TryGetValue(SectionRuntimeFunctions, out var rfs) ? rfs.Size / rfSize : 0;

        var bodies = new List<Body>();
        MetadataReader md = img.PE.GetMetadataReader();
        if (img.Sections.TryGetValue(SectionMethodDefEntryPoints, out var mdep))
        {
            var array = new NativeArray(img.Reader, (uint)mdep.Offset);
            int methodCount = md.MethodDefinitions.Count;
            for (int rid = 1; rid <= methodCount; rid++)
            {
                int offset = 0;
                if (!array.TryGetAt((uint)(rid - 1), ref offset)) continue;
                bodies.Add(new Body { Token = 0x06000000u | (uint)rid, RuntimeFunction = EntryPointIndex(img.Reader, offset) });
            }
        }
        if (img.Sections.TryGetValue(SectionInstanceMethodEntryPoints, out var imep))
        {
            var table = new NativeHashtable(img.Reader, new NativeParser(img.Reader, (uint)imep.Offset), (uint)(imep.Offset + imep.Size));
            NativeHashtable.AllEntriesEnumerator entries = table.EnumerateAllEntries();
            for (NativeParser p = entries.GetNext(); !p.IsNull(); p = entries.GetNext())
            {
                int pos = (int)p.Offset;
                Body body = ReadMethodEntrySignature(img.Reader, ref pos);
                body.RuntimeFunction = EntryPointIndex(img.Reader, pos);
                bodies.Add(body);
            }
        }

        // A body's code is its runtime function and the funclets after it, up to
        // the next body's entry (ReadyToRunMethod's runtime-function walk).
        var isEntry = new bool[rfCount];
        foreach (Body b in bodies)
            if (b.RuntimeFunction >= 0 && b.RuntimeFunction < rfCount) isEntry[b.RuntimeFunction] = true;

        NativeArray debugInfo = img.Sections.TryGetValue(SectionDebugInfo, out var dbg) ? new NativeArray(img.Reader, (uint)dbg.Offset) : null;
        string name = Path.GetFileName(path);
        var line = new StringBuilder();
        foreach (Body b in bodies)
        {
            int dbgOffset = 0;
            if (debugInfo == null || !debugInfo.TryGetAt((uint)b.RuntimeFunction, ref dbgOffset)) continue;
            var info = new DebugInfo(new RuntimeFunction(img.Host), dbgOffset);
            line.Clear();
            line.Append("{\"image\":\"").Append(name).Append("\",\"token\":\"0x").Append(b.Token.ToString("x8")).Append('"');
            if (b.Module >= 0) line.Append(",\"module\":").Append(b.Module);
            if (b.TypeArgs != null || b.MethodArgs != null || b.Unboxing)
            {
                line.Append(",\"instantiation\":{");
                bool first = true;
                if (b.TypeArgs != null) { AppendArgs(line, "type", b.TypeArgs); first = false; }
                if (b.MethodArgs != null) { if (!first) line.Append(','); AppendArgs(line, "method", b.MethodArgs); first = false; }
                if (b.Unboxing) { if (!first) line.Append(','); line.Append("\"unboxingStub\":true"); }
                line.Append('}');
            }
            if (machine == Machine.Amd64 && b.RuntimeFunction < rfCount)
            {
                long size = 0;
                int rf = b.RuntimeFunction;
                do
                {
                    int o = rfs.Offset + rf * rfSize;
                    int begin = img.Reader.ReadInt32(ref o);
                    int end = img.Reader.ReadInt32(ref o);
                    size += end - begin;
                    rf++;
                } while (rf < rfCount && !isEntry[rf]);
                line.Append(",\"codeSize\":").Append(size);
            }
            line.Append(",\"bounds\":[");
            List<DebugInfoBoundsEntry> bounds = info.BoundsList;
            for (int i = 0; i < bounds.Count; i++)
            {
                if (i > 0) line.Append(',');
                line.Append('[').Append(bounds[i].NativeOffset).Append(',').Append(bounds[i].ILOffset)
                    .Append(',').Append((int)bounds[i].SourceTypes).Append(']');
            }
            line.Append(']');
            if (blobs) line.Append(",\"blob\":\"").Append(Convert.ToHexString(info.BoundsBytes).ToLowerInvariant()).Append('"');
            line.Append('}');
            output.WriteLine(line);
        }
    }

    private static void AppendArgs(StringBuilder line, string key, List<string> args)
    {
        line.Append('"').Append(key).Append("\":[");
        for (int i = 0; i < args.Count; i++)
        {
            if (i > 0) line.Append(',');
            line.Append('"').Append(args[i].Replace("\\", "\\\\").Replace("\"", "\\\"")).Append('"');
        }
        line.Append(']');
    }

    private sealed class Body
    {
        public uint Token;
        public int Module = -1;
        public List<string> TypeArgs;
        public List<string> MethodArgs;
        public bool Unboxing;
        public int RuntimeFunction;
    }

    // The OS is XORed into the COFF machine (pedecoder.h,
    // IMAGE_FILE_MACHINE_NATIVE_OS_OVERRIDE): Windows 0, Linux, Apple, FreeBSD, NetBSD, SunOS.
    private static Machine TargetMachine(Machine coff)
    {
        foreach (ushort os in new ushort[] { 0, 0x7B79, 0x4644, 0xADC4, 0x1993, 0x1992 })
        {
            var m = (Machine)((ushort)coff ^ os);
            if (m == Machine.Amd64 || m == Machine.I386 || m == Machine.Arm64 || m == Machine.ArmThumb2 || m == Machine.Arm
                || m == Machine.LoongArch64 || m == Machine.RiscV64)
                return m;
        }
        throw new BadImageFormatException($"unknown machine 0x{(ushort)coff:x4}");
    }

    // An entry-point cell: the runtime function index shifted left by one, or
    // by two with bit 0 set when fixups precede (bit 1: through a lookback).
    private static int EntryPointIndex(NativeReader reader, int offset)
    {
        uint id = 0;
        reader.DecodeUnsigned((uint)offset, ref id);
        return (int)((id & 1) != 0 ? id >> 2 : id >> 1);
    }

    private static uint Compressed(NativeReader reader, ref int pos) => reader.ReadCompressedData(ref pos);

    // READYTORUN_METHOD_SIG_*: flags, [module], [owner type], token, [method
    // instantiation], [constrained type].
    private static Body ReadMethodEntrySignature(NativeReader reader, ref int pos)
    {
        var body = new Body();
        uint flags = Compressed(reader, ref pos);
        if ((flags & 0x80) != 0) body.Module = (int)Compressed(reader, ref pos);
        if ((flags & 0x40) != 0)
        {
            string owner = ReadType(reader, ref pos);
            body.TypeArgs = GenericArgsOf(owner);
        }
        if ((flags & 0x08) != 0) throw new BadImageFormatException("slot instead of token in an entry point");
        uint rid = Compressed(reader, ref pos);
        body.Token = ((flags & 0x10) != 0 ? 0x0A000000u : 0x06000000u) | rid;
        if ((flags & 0x04) != 0)
        {
            uint n = Compressed(reader, ref pos);
            body.MethodArgs = new List<string>();
            for (uint i = 0; i < n; i++) body.MethodArgs.Add(ReadType(reader, ref pos));
        }
        if ((flags & 0x20) != 0) ReadType(reader, ref pos);
        body.Unboxing = (flags & 0x01) != 0;
        return body;
    }

    // The owner type is printed whole; its generic arguments are what an
    // instantiation lists ("class 0x02000004<int32>" -> ["int32"]).
    private static List<string> GenericArgsOf(string owner)
    {
        int lt = owner.IndexOf('<');
        if (lt < 0 || !owner.EndsWith('>')) return null;
        var args = new List<string>();
        int depth = 0, start = lt + 1;
        for (int i = lt + 1; i < owner.Length - 1; i++)
        {
            char c = owner[i];
            if (c == '<' || c == '[' || c == '(') depth++;
            else if (c == '>' || c == ']' || c == ')') depth--;
            else if (c == ',' && depth == 0) { args.Add(owner.Substring(start, i - start).Trim()); start = i + 1; }
        }
        args.Add(owner.Substring(start, owner.Length - 1 - start).Trim());
        return args;
    }

    private static string TypeDefOrRef(uint coded)
    {
        uint table = (coded & 3) switch { 0 => 0x02u, 1 => 0x01u, 2 => 0x1Bu, _ => throw new BadImageFormatException("bad TypeDefOrRef") };
        return "0x" + ((table << 24) | (coded >> 2)).ToString("x8");
    }

    // ECMA-335 II.23.2.12 type, with the runtime's zapsig extensions; ILAsm
    // text with tokens in hex, as gdmap writes it (docs/type-text.md).
    private static string ReadType(NativeReader reader, ref int pos)
    {
        int et = reader.ReadByte(ref pos);
        switch (et)
        {
            case 0x01: return "void";
            case 0x02: return "bool";
            case 0x03: return "char";
            case 0x04: return "int8";
            case 0x05: return "uint8";
            case 0x06: return "int16";
            case 0x07: return "uint16";
            case 0x08: return "int32";
            case 0x09: return "uint32";
            case 0x0a: return "int64";
            case 0x0b: return "uint64";
            case 0x0c: return "float32";
            case 0x0d: return "float64";
            case 0x0e: return "string";
            case 0x16: return "typedref";
            case 0x18: return "native int";
            case 0x19: return "native uint";
            case 0x1c: return "object";
            case 0x0f: return ReadType(reader, ref pos) + "*";
            case 0x10: return ReadType(reader, ref pos) + "&";
            case 0x1d: return ReadType(reader, ref pos) + "[]";
            case 0x45: return ReadType(reader, ref pos) + " pinned";
            case 0x11: return "valuetype " + TypeDefOrRef(Compressed(reader, ref pos));
            case 0x12: return "class " + TypeDefOrRef(Compressed(reader, ref pos));
            case 0x13: return "!" + Compressed(reader, ref pos);
            case 0x1e: return "!!" + Compressed(reader, ref pos);
            case 0x1f: case 0x20:
            {
                string token = TypeDefOrRef(Compressed(reader, ref pos));
                return ReadType(reader, ref pos) + (et == 0x1f ? " modreq(" : " modopt(") + token + ")";
            }
            case 0x15:
            {
                string generic = ReadType(reader, ref pos);
                uint n = Compressed(reader, ref pos);
                var args = new string[n];
                for (uint i = 0; i < n; i++) args[i] = ReadType(reader, ref pos);
                return generic + "<" + string.Join(", ", args) + ">";
            }
            case 0x14:
            {
                string element = ReadType(reader, ref pos);
                uint rank = Compressed(reader, ref pos);
                uint nSizes = Compressed(reader, ref pos);
                var sizes = new uint[nSizes];
                for (uint i = 0; i < nSizes; i++) sizes[i] = Compressed(reader, ref pos);
                uint nLower = Compressed(reader, ref pos);
                for (uint i = 0; i < nLower; i++) Compressed(reader, ref pos);
                var dims = new string[rank];
                for (uint i = 0; i < rank; i++) dims[i] = i < nSizes ? sizes[i].ToString() : "";
                return element + "[" + string.Join(",", dims) + "]";
            }
            case 0x1b:
            {
                uint callconv = reader.ReadByte(ref pos);
                if ((callconv & 0x10) != 0) Compressed(reader, ref pos);
                uint n = Compressed(reader, ref pos);
                string ret = ReadType(reader, ref pos);
                var ps = new string[n];
                for (uint i = 0; i < n; i++) ps[i] = ReadType(reader, ref pos);
                return "method " + ret + " *(" + string.Join(", ", ps) + ")";
            }
            case 0x3e: return "__Canon";
            case 0x3f:
            {
                uint module = Compressed(reader, ref pos);
                return "[module " + module + "] " + ReadType(reader, ref pos);
            }
            case 0x3d: return ReadType(reader, ref pos);
            default: throw new BadImageFormatException($"element type 0x{et:x2} in a method entry signature");
        }
    }
}
