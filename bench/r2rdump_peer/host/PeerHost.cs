// Host objects for R2RDump's DebugInfo.cs (dotnet/runtime,
// src/coreclr/tools/aot/ILCompiler.Reflection.ReadyToRun). The library's own
// ReadyToRunReader, ReadyToRunMethod and RuntimeFunction pull in its whole
// signature decoder, GC and unwind readers, which could not be had as one
// consistent version (docs/performance.md, "ReadyToRun extraction against
// R2RDump"). DebugInfo.cs reads only what these stand-ins carry: the image as
// the library's NativeReader, the machine and the header's major version; the
// bounds decoding itself stays the library's. This file is compiled into the
// library build, not into the driver.
using System;
using System.Reflection.PortableExecutable;

namespace ILCompiler.Reflection.ReadyToRun
{
    public sealed class ReadyToRunHeader
    {
        public ReadyToRunHeader(int majorVersion, int minorVersion)
        {
            MajorVersion = majorVersion;
            MinorVersion = minorVersion;
        }

        public int MajorVersion { get; }
        public int MinorVersion { get; }
    }

    public sealed class ReadyToRunReader
    {
        public ReadyToRunReader(NativeReader imageReader, Machine machine, ReadyToRunHeader header)
        {
            ImageReader = imageReader;
            Machine = machine;
            ReadyToRunHeader = header;
        }

        public NativeReader ImageReader { get; }
        public Machine Machine { get; }
        public ReadyToRunHeader ReadyToRunHeader { get; }
    }

    // Only the parameter count is read (to call a variable a parameter or a
    // local); the driver never looks at variables, so none is given.
    public sealed class MethodSignatureStub
    {
        public object[] ParameterTypes { get; } = Array.Empty<object>();
    }

    public sealed class MethodStub
    {
        public MethodSignatureStub Signature { get; } = new MethodSignatureStub();
    }

    public sealed class RuntimeFunction
    {
        public RuntimeFunction(ReadyToRunReader reader) => ReadyToRunReader = reader;

        public ReadyToRunReader ReadyToRunReader { get; }
        public MethodStub Method { get; } = new MethodStub();
    }
}
