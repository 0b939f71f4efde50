// The program run under tests/runtime/profiler/jit_map_profiler.so (see
// ../README.md). It makes the JIT compile a broad set of code versions, then
// (a) asks the profiler for its snapshot, (b) runs the runtime's own
// createdump on itself, (c) prints "ready PID" and waits until its stdin
// reaches end of file (or it is killed), so that a reader can look at it live.
//
// Environment:
//   CORECLR_PROFILER_PATH   the profiler .so (the snapshot's export is found there)
//   GDMAP_JIT_RECORDS       where the snapshot goes (required for (a))
//   GDMAP_JIT_CORE          where createdump writes the core (none when unset)
//   GDMAP_JIT_CORE_FULL=1   createdump --full instead of --withheap
//   GDMAP_JIT_HOT_SECONDS   how long the hot loop runs (default 2)
//   GDMAP_JIT_NO_WAIT=1     exit after "ready" instead of waiting
using System.Diagnostics;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;

static class Program
{
    record struct Point(int X, int Y);
    record Person(string Name, int Age, List<string> Tags);
    struct Big { public long A, B, C, D; }

    // Kept alive until the snapshot and the dump are taken: a compiled
    // regex's and a DynamicMethod's code is collectible.
    static Regex? s_compiled;
    static Regex? s_compiled2;
    static Func<int, int>? s_lcg;

    static unsafe int Main(string[] args)
    {
        var sb = new StringBuilder();
        Linq(sb);
        Generics(sb);
        Regexes(sb);
        Lcg(sb);
        Json(sb);
        Exceptions(sb);
        Async(sb).GetAwaiter().GetResult();
        sb.Append(Osr(30_000_000));
        sb.Append(HotLoop());
        Console.Error.WriteLine($"workload: {sb.Length} chars, hash {sb.ToString().GetHashCode() & 0xffff:x4}, .NET {Environment.Version}");

        // (a) the profiler's snapshot
        string? records = Environment.GetEnvironmentVariable("GDMAP_JIT_RECORDS");
        if (!string.IsNullOrEmpty(records))
        {
            string? so = Environment.GetEnvironmentVariable("CORECLR_PROFILER_PATH");
            if (string.IsNullOrEmpty(so)) { Console.Error.WriteLine("workload: CORECLR_PROFILER_PATH is not set"); return 2; }
            IntPtr lib = NativeLibrary.Load(so);
            var snapshot = (delegate* unmanaged<byte*, int>)NativeLibrary.GetExport(lib, "gdmap_jit_snapshot");
            byte[] path = Encoding.UTF8.GetBytes(records + "\0");
            int n;
            fixed (byte* p = path) n = snapshot(p);
            if (n < 0) { Console.Error.WriteLine($"workload: gdmap_jit_snapshot failed ({n})"); return 3; }
            Console.Error.WriteLine($"workload: snapshot of {n} code versions in {records}");
        }

        // (b) the runtime's own createdump on this very process
        string? core = Environment.GetEnvironmentVariable("GDMAP_JIT_CORE");
        int pid = Environment.ProcessId;
        if (!string.IsNullOrEmpty(core))
        {
            string dir = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
            string createdump = Path.Combine(dir, "createdump");
            string kind = Environment.GetEnvironmentVariable("GDMAP_JIT_CORE_FULL") == "1" ? "--full" : "--withheap";
            var psi = new ProcessStartInfo(createdump) { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (var a in new[] { kind, "-f", core, pid.ToString() }) psi.ArgumentList.Add(a);
            using var proc = Process.Start(psi)!;
            string outText = proc.StandardOutput.ReadToEnd() + proc.StandardError.ReadToEnd();
            proc.WaitForExit();
            if (proc.ExitCode != 0 || !File.Exists(core))
            {
                Console.Error.WriteLine($"workload: {createdump} {kind} exited {proc.ExitCode}: {outText.Trim()}");
                return 4;
            }
            Console.Error.WriteLine($"workload: createdump {kind}: {new FileInfo(core).Length} bytes in {core}");
        }

        // (c) ready: wait for the reader
        Console.Out.WriteLine($"ready {pid}");
        Console.Out.Flush();
        if (Environment.GetEnvironmentVariable("GDMAP_JIT_NO_WAIT") != "1")
            while (Console.In.ReadLine() != null) { }
        GC.KeepAlive(s_compiled);
        GC.KeepAlive(s_compiled2);
        GC.KeepAlive(s_lcg);
        return 0;
    }

    static void Linq(StringBuilder sb)
    {
        var nums = Enumerable.Range(0, 500).ToList();
        var pts = nums.Select(i => new Point(i % 17, i % 13)).ToArray();
        var groups = pts.GroupBy(p => p.X).OrderByDescending(g => g.Count()).ThenBy(g => g.Key).Take(3);
        foreach (var g in groups) sb.Append(g.Key).Append(':').Append(g.Sum(p => p.Y));
        var joined = nums.Where(n => n % 3 == 0).Join(nums.Where(n => n % 5 == 0), a => a, b => b, (a, b) => a + b);
        sb.Append(joined.Sum()).Append(nums.Average()).Append(pts.Max(p => p.Y)).Append(pts.Distinct().Count());
        var dbl = nums.Select(n => n * 0.5).Where(d => d > 10).Aggregate(0.0, (a, d) => a + d);
        var lookup = pts.ToLookup(p => p.Y);
        var dict = pts.DistinctBy(p => p.X).ToDictionary(p => p.X, p => p.Y);
        var words = new[] { "pear", "apple", "fig", "kiwi", "banana" };
        sb.Append(dbl).Append(lookup[3].Count()).Append(dict.Count)
          .Append(string.Join(",", words.OrderBy(w => w.Length).ThenBy(w => w, StringComparer.Ordinal)))
          .Append(string.Join(",", nums.Chunk(100).Select(c => c.Length)))
          .Append(nums.OrderBy(n => -n).First()).Append(nums.Any(n => n > 499));
    }

    // Generic code over value types (one body per instantiation) and over
    // reference types (one shared __Canon body).
    sealed class Box<T>
    {
        readonly List<T> _items = new();
        public void Add(T item) => _items.Add(item);
        [MethodImpl(MethodImplOptions.NoInlining)]
        public int CountWhere(Func<T, bool> pred) { int n = 0; foreach (var x in _items) if (pred(x)) n++; return n; }
        [MethodImpl(MethodImplOptions.NoInlining)]
        public TOut Fold<TOut>(TOut seed, Func<TOut, T, TOut> f) { var acc = seed; foreach (var x in _items) acc = f(acc, x); return acc; }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static string Describe<T>(T value) => typeof(T).Name + ":" + value;

    static void Generics(StringBuilder sb)
    {
        var ints = new Box<int>(); var longs = new Box<long>(); var pts = new Box<Point>(); var bigs = new Box<Big>();
        var strs = new Box<string>(); var objs = new Box<object>(); var people = new Box<Person>();
        for (int i = 0; i < 50; i++)
        {
            ints.Add(i); longs.Add(i * 3L); pts.Add(new Point(i, -i)); bigs.Add(new Big { A = i, B = 2 * i, C = 3 * i, D = -i });
            strs.Add("s" + i); objs.Add(i % 2 == 0 ? i : "o"); people.Add(new Person("p" + i, i, new()));
        }
        sb.Append(ints.CountWhere(x => x % 2 == 0)).Append(longs.CountWhere(x => x > 30)).Append(pts.CountWhere(p => p.X > p.Y))
          .Append(bigs.CountWhere(b => b.A > 10)).Append(strs.CountWhere(s => s.Length > 2)).Append(objs.CountWhere(o => o is int))
          .Append(people.CountWhere(p => p.Age > 20));
        sb.Append(ints.Fold(0L, (a, x) => a + x)).Append(strs.Fold("", (a, s) => a.Length > 20 ? a : a + s))
          .Append(pts.Fold(0, (a, p) => a + p.X)).Append(people.Fold(new StringBuilder(), (a, p) => a.Append(p.Name[0])));
        sb.Append(Describe(1)).Append(Describe(2.5)).Append(Describe("x")).Append(Describe(new Point(1, 2))).Append(Describe<object>(sb.Length));
        var d1 = new Dictionary<Point, string>(); var d2 = new Dictionary<string, Point>();
        for (int i = 0; i < 20; i++) { d1[new Point(i, i)] = "v" + i; d2["k" + i] = new Point(i, 0); }
        sb.Append(d1.Count).Append(d2["k3"].X);
    }

    static void Regexes(StringBuilder sb)
    {
        var r = new Regex(@"(?<word>\b\w{4,}\b)", RegexOptions.IgnoreCase);
        foreach (Match m in r.Matches("Regular expressions are quite handy for matching words")) sb.Append(m.Groups["word"].Value);
        sb.Append(Regex.Replace("2024-01-02", @"(\d+)-(\d+)-(\d+)", "$3/$2/$1"));
        // RegexOptions.Compiled: the pattern becomes DynamicMethods (LCG).
        s_compiled = new Regex(@"\s+", RegexOptions.Compiled);
        sb.Append(s_compiled.Replace("a  b   c", " "));
        s_compiled2 = new Regex(@"(?<y>\d{4})-(?<m>\d\d)-(?<d>\d\d)|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*", RegexOptions.Compiled | RegexOptions.CultureInvariant);
        foreach (Match m in s_compiled2.Matches("On 2024-02-29 Ada Lovelace met Charles Babbage in London 1843-07-10"))
            sb.Append(m.Value.Length);
    }

    // A DynamicMethod of our own, with a loop and a branch.
    static void Lcg(StringBuilder sb)
    {
        var dm = new DynamicMethod("gdmap_lcg_sum", typeof(int), new[] { typeof(int) }, typeof(Program).Module);
        var il = dm.GetILGenerator();
        var acc = il.DeclareLocal(typeof(int));
        var i = il.DeclareLocal(typeof(int));
        var top = il.DefineLabel(); var test = il.DefineLabel();
        il.Emit(OpCodes.Ldc_I4_0); il.Emit(OpCodes.Stloc, acc);
        il.Emit(OpCodes.Ldc_I4_0); il.Emit(OpCodes.Stloc, i);
        il.Emit(OpCodes.Br, test);
        il.MarkLabel(top);
        il.Emit(OpCodes.Ldloc, acc); il.Emit(OpCodes.Ldloc, i); il.Emit(OpCodes.Add); il.Emit(OpCodes.Stloc, acc);
        il.Emit(OpCodes.Ldloc, i); il.Emit(OpCodes.Ldc_I4_1); il.Emit(OpCodes.Add); il.Emit(OpCodes.Stloc, i);
        il.MarkLabel(test);
        il.Emit(OpCodes.Ldloc, i); il.Emit(OpCodes.Ldarg_0); il.Emit(OpCodes.Blt, top);
        il.Emit(OpCodes.Ldloc, acc); il.Emit(OpCodes.Ret);
        s_lcg = dm.CreateDelegate<Func<int, int>>();
        sb.Append(s_lcg(100));
    }

    static void Json(StringBuilder sb)
    {
        var people = new List<Person> { new("Ann", 31, new() { "x", "y" }), new("Bob", 42, new()) };
        string json = JsonSerializer.Serialize(people, new JsonSerializerOptions { WriteIndented = true });
        var back = JsonSerializer.Deserialize<List<Person>>(json)!;
        sb.Append(json.Length).Append(back[0].Tags.Count).Append(back[1].Age);
        using var doc = JsonDocument.Parse("{\"a\":[1,2,3],\"b\":{\"c\":\"d\"},\"e\":1.5}");
        foreach (var el in doc.RootElement.GetProperty("a").EnumerateArray()) sb.Append(el.GetInt32());
        sb.Append(doc.RootElement.GetProperty("b").GetProperty("c").GetString());
        var dict = JsonSerializer.Deserialize<Dictionary<string, int>>("{\"x\":1,\"y\":2}")!;
        sb.Append(dict["y"]).Append(JsonSerializer.Serialize(new Point(5, 6)));
    }

    // Funclets: catch, filter and finally handlers are separate pieces of code.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Thrower(int depth)
    {
        if (depth == 0) throw new InvalidOperationException("deep");
        try { return Thrower(depth - 1); }
        finally { depth++; }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Handlers(int i)
    {
        int result = 0;
        try
        {
            try { result = Thrower(i % 4); }
            catch (InvalidOperationException e) when (e.Message.Length > i % 3) { result = -1; }
            catch (InvalidOperationException) { result = -2; }
            finally { result *= 2; }
            if (i % 5 == 0) throw new ArgumentException("five");
        }
        catch (ArgumentException) { result += 100; }
        return result;
    }

    static void Exceptions(StringBuilder sb)
    {
        for (int i = 0; i < 20; i++) sb.Append(Handlers(i));
        try { int.Parse("nope"); } catch (FormatException e) { sb.Append(e.GetType().Name); }
    }

    static async Task<int> Leaf(int i)
    {
        await Task.Yield();
        if (i == 3) throw new TimeoutException("three");
        return i * 2;
    }

    static async Task Async(StringBuilder sb)
    {
        int total = 0;
        for (int i = 0; i < 6; i++)
        {
            try { total += await Leaf(i); }
            catch (TimeoutException) { total -= 1; }
        }
        var all = await Task.WhenAll(Enumerable.Range(0, 8).Select(Leaf2));
        sb.Append(total).Append(all.Sum());
        await foreach (var v in Stream(5)) sb.Append(v);
    }

    static async Task<int> Leaf2(int i) { await Task.Delay(1); return i; }

    static async IAsyncEnumerable<int> Stream(int n)
    {
        for (int i = 0; i < n; i++) { await Task.Yield(); yield return i; }
    }

    // Called once with a long loop: tier 0 code with a patchpoint, then an
    // OSR body (tier1-osr) entered from the middle of the loop.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static long Osr(int n)
    {
        long s = 0;
        for (int i = 0; i < n; i++) s += (i * (long)i) % 7 + (i & 3);
        return s;
    }

    // Called in a loop for a while: tier 0, then (TieredPGO) instrumented,
    // then tier 1 from the background compiler.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Hot(int x)
    {
        int r = x;
        if ((x & 7) == 0) r ^= x >> 3;
        else r += x % 13;
        return r;
    }

    static long HotLoop()
    {
        string? text = Environment.GetEnvironmentVariable("GDMAP_JIT_HOT_SECONDS");
        double seconds = double.TryParse(text, System.Globalization.CultureInfo.InvariantCulture, out var s) ? s : 2;
        long acc = 0;
        var until = DateTime.UtcNow.AddSeconds(seconds);
        while (DateTime.UtcNow < until)
        {
            for (int i = 0; i < 10_000; i++) acc += Hot(i);
            Thread.Sleep(1);
        }
        return acc;
    }
}
