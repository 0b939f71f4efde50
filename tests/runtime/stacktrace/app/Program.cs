// The program of tests/runtime/stacktrace (README.md there): it captures the
// runtime's own stack traces inside its own ReadyToRun-compiled methods and
// writes every frame as one JSON line, for run_judge.py to hold `gdmap il
// locate` to: method (token, module, declaring type's and method's generic
// arguments), GetNativeOffset(), GetILOffset(), file, line and column, and
// what kind of frame it is. For frames of an exception it also writes the IP
// and flags the runtime stored in Exception._stackTrace (read by reflection;
// layout of .NET 9 to 11: a 16-byte header {int size; int keepAlive;
// Thread*} and 32-byte elements {ip; sp; MethodDesc*; int flags}), which say
// whether the runtime already stepped the IP back by one (STEF_IP_ADJUSTED).
//
// Usage: stacktrace_app OUT.jsonl
// Writes OUT.jsonl, then "ready PID BASE" (BASE: its own image's load
// address, the lowest mapping of its dll at file offset 0 in
// /proc/self/maps), then waits until its stdin closes, so that the judge can
// read it live (gdmap il locate --pid) while nothing changes.
//
// Every method here runs a few times only: tiered compilation never replaces
// its ReadyToRun code (30 calls after start-up are needed for that).
// Lines named by Here() are checked by the judge against the runtime's own
// line for the throw frame: the capture is right before anything is compared.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Text;
using System.Threading.Tasks;

sealed class Boom : Exception
{
    public readonly int Line;
    public Boom(int line) : base("boom at line " + line) { Line = line; }
}

sealed class Node
{
    public int Value;
    public Node Next = null;
}

struct Point
{
    public int X, Y;
    public Point(int x, int y) { X = x; Y = y; }
    public override string ToString() => X + "," + Y;
    public override int GetHashCode() => X * 31 + Y;
}

static class Recorder
{
    static readonly List<string> lines = new List<string>();

    public static int Here([CallerLineNumber] int line = 0) => line;

    // kind: "live" (new StackTrace(true): every frame's offset is a return
    // address, except the leaf's, which is the call into the runtime),
    // "exception" (new StackTrace(e, true)).
    // inst: the type arguments of the generic code captured in (a live
    // trace cannot say: StackFrame.GetMethod() names the generic
    // definition), written as "hint" for frames of this program's generic
    // methods, in the form the R2R profiler names types: a value type by its
    // module and TypeDef token, a reference type as the shared __Canon.
    public static void Capture(string scenario, StackTrace trace, string kind, Exception e = null, int expectedLine = 0,
                               bool faulted = false, Type[] inst = null)
    {
        (ulong ip, int flags)[] raw = e == null ? null : RawFrames(e);
        StackFrame[] frames = trace.GetFrames() ?? Array.Empty<StackFrame>();
        for (int i = 0; i < frames.Length; i++)
        {
            StackFrame f = frames[i];
            MethodBase m = f.GetMethod();
            var sb = new StringBuilder();
            sb.Append("{\"scenario\":").Append(Json(scenario));
            sb.Append(",\"kind\":").Append(Json(kind));
            sb.Append(",\"index\":").Append(i);
            sb.Append(",\"frames\":").Append(frames.Length);
            if (m != null)
            {
                sb.Append(",\"module\":").Append(Json(m.Module.FullyQualifiedName));
                sb.Append(",\"token\":\"0x").Append(m.MetadataToken.ToString("x8")).Append('"');
                sb.Append(",\"type\":").Append(Json(m.DeclaringType?.FullName ?? m.DeclaringType?.Name ?? ""));
                sb.Append(",\"method\":").Append(Json(m.Name));
                sb.Append(",\"typeArgs\":").Append(Names(m.DeclaringType != null && m.DeclaringType.IsGenericType
                                                             ? m.DeclaringType.GetGenericArguments()
                                                             : Type.EmptyTypes));
                sb.Append(",\"methodArgs\":").Append(Names(m.IsGenericMethod ? m.GetGenericArguments() : Type.EmptyTypes));
                if (inst != null && m.Module == typeof(Recorder).Module)
                {
                    if (m.DeclaringType != null && m.DeclaringType.IsGenericTypeDefinition)
                        sb.Append(",\"classHint\":").Append(Hint(inst));
                    if (m.IsGenericMethodDefinition) sb.Append(",\"methodHint\":").Append(Hint(inst));
                }
            }
            sb.Append(",\"nativeOffset\":").Append(f.GetNativeOffset());
            sb.Append(",\"ilOffset\":").Append(f.GetILOffset());
            sb.Append(",\"file\":").Append(Json(f.GetFileName()));
            sb.Append(",\"line\":").Append(f.GetFileLineNumber());
            sb.Append(",\"column\":").Append(f.GetFileColumnNumber());
            // The frame of the throw (or of the fault): the exception's first frame.
            sb.Append(",\"throwFrame\":").Append(kind == "exception" && i == 0 ? "true" : "false");
            sb.Append(",\"faulted\":").Append(faulted && i == 0 ? "true" : "false");
            if (i == 0 && expectedLine != 0) sb.Append(",\"expectedLine\":").Append(expectedLine);
            if (raw != null && raw.Length == frames.Length)
            {
                sb.Append(",\"rawIp\":\"0x").Append(raw[i].ip.ToString("x")).Append('"');
                sb.Append(",\"rawFlags\":").Append(raw[i].flags);
            }
            sb.Append('}');
            lines.Add(sb.ToString());
        }
    }

    // Exception._stackTrace: a byte[], or an object[] whose slot 0 is it.
    static (ulong, int)[] RawFrames(Exception e)
    {
        FieldInfo field = typeof(Exception).GetField("_stackTrace", BindingFlags.NonPublic | BindingFlags.Instance);
        object value = field?.GetValue(e);
        byte[] bytes = value as byte[] ?? (value as object[])?.FirstOrDefault() as byte[];
        if (bytes == null || bytes.Length < 16) return null;
        int count = BitConverter.ToInt32(bytes, 0);
        if (count < 0 || 16 + (long)count * 32 > bytes.Length) return null;
        var result = new (ulong, int)[count];
        for (int i = 0; i < count; i++)
        {
            int at = 16 + i * 32;
            ulong function = BitConverter.ToUInt64(bytes, at + 16);
            if (function == 0) return null;
            result[i] = (BitConverter.ToUInt64(bytes, at), BitConverter.ToInt32(bytes, at + 24));
        }
        return result;
    }

    static string Hint(Type[] types)
    {
        Type canon = typeof(object).Assembly.GetType("System.__Canon");
        return "[" + string.Join(",", types.Select(t => t.IsValueType ? t : canon).Select(
                         t => "{\"module\":" + Json(t.Module.Name) + ",\"typeDef\":\"0x" + t.MetadataToken.ToString("x8") + "\"}")) + "]";
    }

    static string Names(Type[] types) => "[" + string.Join(",", types.Select(t => Json(t.FullName ?? t.Name))) + "]";

    static string Json(string s)
    {
        if (s == null) return "null";
        var sb = new StringBuilder("\"");
        foreach (char c in s)
        {
            if (c == '"' || c == '\\') sb.Append('\\').Append(c);
            else if (c < 0x20) sb.Append("\\u").Append(((int)c).ToString("x4"));
            else sb.Append(c);
        }
        return sb.Append('"').ToString();
    }

    public static void Write(string path) => File.WriteAllLines(path, lines);
}

// Generic code: one class over a value type and over reference types (the
// shared __Canon code), one generic method likewise.
sealed class Box<T>
{
    public T Value;
    public Box(T value) { Value = value; }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public int Probe(int depth)
    {
        if (depth > 0) return Probe(depth - 1) + 1;
        Recorder.Capture("generic-live-" + typeof(T).Name, new StackTrace(true), "live", inst: new[] { typeof(T) });
        return Value.GetHashCode() & 1;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public T Fail(int x)
    {
        if (x > 0) throw new Boom(Recorder.Here());
        return Value;
    }
}

static class Scenarios
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Level3(int x)
    {
        if (x > 0) throw new Boom(Recorder.Here());
        return x;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Level2(int x) => Level3(x + 1) * 2;

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Level1(int x)
    {
        int y = x * 3;
        y += Level2(y);
        return y;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowCaught()
    {
        try { Level1(1); }
        catch (Boom e) { Recorder.Capture("throw-nested", new StackTrace(e, true), "exception", e, e.Line); }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void LiveInLoop()
    {
        int sum = 0;
        for (int i = 0; i < 3; i++)
        {
            sum += i;
            if (i == 1) Recorder.Capture("loop-live", new StackTrace(true), "live");
            sum ^= i * 7;
        }
        int j = 0;
        while (j < 2)
        {
            Recorder.Capture("while-live-" + j, new StackTrace(true), "live");
            j++;
        }
        GC.KeepAlive(sum);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void InCatchFunclet()
    {
        try
        {
            Level3(5);
        }
        catch (Boom e) when (e.Line > 0)
        {
            Recorder.Capture("catch-live", new StackTrace(true), "live");
            try
            {
                throw new Boom(Recorder.Here());
            }
            catch (Boom inner)
            {
                Recorder.Capture("throw-in-catch", new StackTrace(inner, true), "exception", inner, inner.Line);
            }
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void InFinallyFunclet()
    {
        int state = 0;
        try
        {
            try
            {
                state = 1;
                Level3(state);
            }
            finally
            {
                state = 2;
                Recorder.Capture("finally-live", new StackTrace(true), "live");
            }
        }
        catch (Boom e)
        {
            Recorder.Capture("throw-through-finally", new StackTrace(e, true), "exception", e, e.Line);
        }
        GC.KeepAlive(state);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int ReadValue(Node n) => n.Next.Value;

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Divide(int a, int b) => a / b + 1;

    // The faulting load is the first instruction of its statement: the byte
    // before it is the previous statement's (the array store).
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int FaultAtStatementStart(Node n, int[] sink)
    {
        sink[0] = 7;
        return n.Value;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int DivideAtStatementStart(int a, int b, int[] sink)
    {
        sink[1] = a;
        return a / b;
    }

    // Hardware faults: a null dereference (SIGSEGV -> NullReferenceException)
    // and an integer division by zero (SIGFPE -> DivideByZeroException).
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void HardwareFaults()
    {
        var n = new Node { Value = 1 };
        try { ReadValue(n); }
        catch (NullReferenceException e)
        {
            Recorder.Capture("null-dereference", new StackTrace(e, true), "exception", e, 0, faulted: true);
        }
        try { Divide(7, n.Value - 1); }
        catch (DivideByZeroException e)
        {
            Recorder.Capture("divide-by-zero", new StackTrace(e, true), "exception", e, 0, faulted: true);
        }
        var sink = new int[2];
        try { FaultAtStatementStart(n.Next, sink); }
        catch (NullReferenceException e)
        {
            Recorder.Capture("null-dereference-at-statement-start", new StackTrace(e, true), "exception", e, 0,
                             faulted: true);
        }
        try { DivideAtStatementStart(5, n.Value - 1, sink); }
        catch (DivideByZeroException e)
        {
            Recorder.Capture("divide-at-statement-start", new StackTrace(e, true), "exception", e, 0, faulted: true);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static async Task<int> InnerAsync(int x)
    {
        await Task.Yield();
        Recorder.Capture("async-live-after-await", new StackTrace(true), "live");
        if (x > 1) throw new Boom(Recorder.Here());
        return x;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static async Task<int> OuterAsync(int x)
    {
        Recorder.Capture("async-live-before-await", new StackTrace(true), "live");
        int r = await InnerAsync(x);
        return r + 1;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Async()
    {
        OuterAsync(1).GetAwaiter().GetResult();
        try { OuterAsync(2).GetAwaiter().GetResult(); }
        catch (Boom e) { Recorder.Capture("async-throw", new StackTrace(e, true), "exception", e, e.Line); }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int GenericMethod<T>(T value, bool fail)
    {
        if (fail) throw new Boom(Recorder.Here());
        Recorder.Capture("generic-method-live-" + typeof(T).Name, new StackTrace(true), "live", inst: new[] { typeof(T) });
        return value.GetHashCode() & 1;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Generics()
    {
        new Box<int>(3).Probe(1);
        new Box<Point>(new Point(1, 2)).Probe(1);
        new Box<string>("s").Probe(1);
        new Box<Node>(new Node()).Probe(0);
        GenericMethod(5, false);
        GenericMethod("x", false);
        GenericMethod(new Point(3, 4), false);
        try { new Box<Point>(new Point(1, 2)).Fail(1); }
        catch (Boom e) { Recorder.Capture("generic-throw-Point", new StackTrace(e, true), "exception", e, e.Line); }
        try { new Box<string>("t").Fail(1); }
        catch (Boom e) { Recorder.Capture("generic-throw-String", new StackTrace(e, true), "exception", e, e.Line); }
        try { GenericMethod(new Node(), true); }
        catch (Boom e) { Recorder.Capture("generic-method-throw-Node", new StackTrace(e, true), "exception", e, e.Line); }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void LambdasAndLocalFunctions()
    {
        int captured = 4;
        Func<int, int> lambda = x =>
        {
            Recorder.Capture("lambda-live", new StackTrace(true), "live");
            return x + captured;
        };
        int viaLinq = new[] { 1 }.Select(lambda).Sum();
        int Local(int a)
        {
            if (a > 100) throw new Boom(Recorder.Here());
            Recorder.Capture("local-function-live", new StackTrace(true), "live");
            return a * captured;
        }
        viaLinq += Local(viaLinq);
        try { Local(1000); }
        catch (Boom e) { Recorder.Capture("local-function-throw", new StackTrace(e, true), "exception", e, e.Line); }
        Func<int, int> thrower = x => x > 0 ? throw new Boom(Recorder.Here()) : x;
        try { new List<int> { 1 }.ForEach(i => thrower(i)); }
        catch (Boom e) { Recorder.Capture("lambda-throw", new StackTrace(e, true), "exception", e, e.Line); }
        GC.KeepAlive(viaLinq);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Combine(int a, int b, int c) => a + b + c;

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Compute(int a)
    {
        if (a < 0) throw new Boom(Recorder.Here());
        Recorder.Capture("multi-line-live-" + a, new StackTrace(true), "live");
        return a * 2;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void MultiLineStatements()
    {
        int r = Combine(
            Compute(1),
            Compute(2),
            3);
        try
        {
            r += Combine(
                Compute(3),
                Compute(-r),
                Compute(4));
        }
        catch (Boom e) { Recorder.Capture("multi-line-throw", new StackTrace(e, true), "exception", e, e.Line); }
        GC.KeepAlive(r);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Rethrow()
    {
        try
        {
            try { Level1(2); }
            catch (Boom)
            {
                throw;
            }
        }
        catch (Boom e) { Recorder.Capture("rethrow", new StackTrace(e, true), "exception", e); }
    }
}

static class Program
{
    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: stacktrace_app OUT.jsonl");
            return 2;
        }
        Scenarios.ThrowCaught();
        Scenarios.LiveInLoop();
        Scenarios.InCatchFunclet();
        Scenarios.InFinallyFunclet();
        Scenarios.HardwareFaults();
        Scenarios.Async();
        Scenarios.Generics();
        Scenarios.LambdasAndLocalFunctions();
        Scenarios.MultiLineStatements();
        Scenarios.Rethrow();
        Recorder.Write(args[0]);
        Console.WriteLine("ready " + Environment.ProcessId + " 0x" + ImageBase().ToString("x"));
        Console.Out.Flush();
        Console.In.ReadToEnd();
        return 0;
    }

    // The lowest private mapping of this program's dll at file offset 0:
    // where the runtime loaded its image (the R2R code's RVAs are relative
    // to it), not the shared flat view of the whole file it also maps.
    static ulong ImageBase()
    {
        string dll = typeof(Program).Assembly.Location;
        ulong best = ulong.MaxValue;
        foreach (string line in File.ReadLines("/proc/self/maps"))
        {
            string[] parts = line.Split(' ', 6, StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length < 6 || parts[5].Trim() != dll || Convert.ToUInt64(parts[2], 16) != 0 ||
                !parts[1].EndsWith("p"))
                continue;
            ulong start = Convert.ToUInt64(parts[0].Split('-')[0], 16);
            best = Math.Min(best, start);
        }
        return best == ulong.MaxValue ? 0 : best;
    }
}
