// A broad slice of the framework, each part small: what matters is which
// precompiled framework methods run (the profiler records them), not what
// the program computes. The result is printed so nothing is optimized away.
using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;

static class Program
{
    record struct Point(int X, int Y);
    record Person(string Name, int Age, List<string> Tags);
    enum Color { Red, Green, Blue }

    static int Main(string[] args)
    {
        var sb = new StringBuilder();
        Collections(sb);
        Linq(sb);
        Strings(sb);
        Regexes(sb);
        Json(sb);
        Exceptions(sb);
        Async(sb).GetAwaiter().GetResult();
        Files(sb);
        Misc(sb);
        // --hot: call the same framework methods for a while, so tiered
        // compilation replaces their R2R code with tier-1 code (a second code
        // version: the profiler must still report the R2R one).
        if (args.Contains("--hot"))
            for (var until = DateTime.UtcNow.AddSeconds(2); DateTime.UtcNow < until; Thread.Sleep(50))
                for (int i = 0; i < 2000; i++) { Collections(new StringBuilder()); if (i % 100 == 0) Strings(new StringBuilder()); }
        Console.WriteLine($"workload: {sb.Length} chars, hash {sb.ToString().GetHashCode() & 0xffff:x4}");
        return 0;
    }

    static void Collections(StringBuilder sb)
    {
        var list = new List<int>();
        for (int i = 0; i < 200; i++) list.Add(i * 7 % 31);
        list.Sort();
        list.Reverse();
        var dict = new Dictionary<string, int>();
        foreach (var v in list) dict[$"k{v}"] = dict.TryGetValue($"k{v}", out var c) ? c + 1 : 1;
        var points = new Dictionary<Point, Color> { [new Point(1, 2)] = Color.Red, [new Point(3, 4)] = Color.Blue };
        var set = new HashSet<long>(list.Select(x => (long)x));
        var queue = new Queue<string>(dict.Keys);
        var stack = new Stack<double>();
        while (queue.Count > 0) stack.Push(queue.Dequeue().Length);
        var sorted = new SortedDictionary<int, string>();
        foreach (var kv in dict) sorted[kv.Value * 100 + kv.Key.Length] = kv.Key;
        var linked = new LinkedList<char>("linked");
        var cd = new ConcurrentDictionary<int, int>();
        Parallel.For(0, 100, i => cd.AddOrUpdate(i % 10, 1, (_, o) => o + 1));
        var arr = list.ToArray();
        Array.Sort(arr);
        int idx = Array.BinarySearch(arr, 15);
        var span = arr.AsSpan(2, 5);
        span.Reverse();
        var pq = new PriorityQueue<string, int>();
        pq.Enqueue("a", 3); pq.Enqueue("b", 1);
        sb.Append(list.Count).Append(dict.Count).Append(points[new Point(3, 4)]).Append(set.Count)
          .Append(stack.Peek()).Append(sorted.First().Value).Append(linked.Count).Append(cd[3])
          .Append(idx).Append(span[0]).Append(pq.Dequeue());
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
        var zipped = nums.Zip(nums.Skip(1), (a, b) => b - a).All(d => d == 1);
        var dict = pts.DistinctBy(p => p.X).ToDictionary(p => p.X, p => p.Y);
        sb.Append(dbl).Append(lookup[3].Count()).Append(zipped).Append(dict.Count)
          .Append(string.Join(",", nums.Chunk(100).Select(c => c.Length)))
          .Append(nums.OrderBy(n => -n).First()).Append(nums.Any(n => n > 499)).Append(nums.Contains(42));
    }

    static void Strings(StringBuilder sb)
    {
        string s = "The quick brown fox jumps over the lazy dog";
        var words = s.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        sb.Append(string.Join("|", words.Select(w => w.ToUpperInvariant())));
        sb.Append(s.IndexOf("fox", StringComparison.Ordinal)).Append(s.Replace("dog", "cat"));
        sb.Append(s.Contains("LAZY", StringComparison.OrdinalIgnoreCase)).Append(s.Trim().PadLeft(50, '*'));
        sb.AppendFormat(CultureInfo.InvariantCulture, "{0:N2} {1:X8} {2:yyyy-MM-dd} {3:P1} {4,10:F3}",
            12345.678, 0xBEEF, new DateTime(2024, 2, 29), 0.256, Math.PI);
        sb.Append(int.Parse("12345")).Append(double.Parse("3.25", CultureInfo.InvariantCulture))
          .Append(Guid.Parse("6d1b2f3a-8c4e-4e2b-9a7d-1f0c5e3b2a91")).Append(decimal.Round(10.125m, 2));
        sb.Append($"{DateTime.UnixEpoch:O} {TimeSpan.FromMinutes(90)} {Color.Green} {Enum.Parse<Color>("Blue")}");
        var bytes = Encoding.UTF8.GetBytes(s + "é€😀");
        sb.Append(Convert.ToBase64String(bytes)).Append(Encoding.UTF8.GetString(bytes).Length)
          .Append(Convert.ToHexString(bytes, 0, 8)).Append(string.Concat(s.Reverse()))
          .Append(string.Compare("a", "B", StringComparison.OrdinalIgnoreCase)).Append(s.GetHashCode() != 0);
    }

    static void Regexes(StringBuilder sb)
    {
        var r = new Regex(@"(?<word>\b\w{4,}\b)", RegexOptions.IgnoreCase);
        foreach (Match m in r.Matches("Regular expressions are quite handy for matching words")) sb.Append(m.Groups["word"].Value);
        sb.Append(Regex.Replace("2024-01-02", @"(\d+)-(\d+)-(\d+)", "$3/$2/$1"));
        sb.Append(Regex.IsMatch("abc123", "^[a-z]+[0-9]+$")).Append(string.Join(";", Regex.Split("a1b22c333", @"\d+")));
        var compiled = new Regex(@"\s+", RegexOptions.Compiled);
        sb.Append(compiled.Replace("a  b   c", " "));
    }

    static void Json(StringBuilder sb)
    {
        var people = new List<Person> { new("Ann", 31, new() { "x", "y" }), new("Bob", 42, new()) };
        string json = JsonSerializer.Serialize(people, new JsonSerializerOptions { WriteIndented = true });
        var back = JsonSerializer.Deserialize<List<Person>>(json)!;
        sb.Append(json.Length).Append(back[0].Tags.Count).Append(back[1].Age);
        using var doc = JsonDocument.Parse("{\"a\":[1,2,3],\"b\":{\"c\":\"d\"},\"e\":1.5}");
        foreach (var el in doc.RootElement.GetProperty("a").EnumerateArray()) sb.Append(el.GetInt32());
        sb.Append(doc.RootElement.GetProperty("b").GetProperty("c").GetString()).Append(doc.RootElement.GetProperty("e").GetDouble());
        var dict = JsonSerializer.Deserialize<Dictionary<string, int>>("{\"x\":1,\"y\":2}")!;
        sb.Append(dict["y"]).Append(JsonSerializer.Serialize(new Point(5, 6)));
        using var ms = new MemoryStream();
        using (var w = new Utf8JsonWriter(ms)) { w.WriteStartObject(); w.WriteNumber("n", 7); w.WriteString("s", "t"); w.WriteEndObject(); }
        sb.Append(Encoding.UTF8.GetString(ms.ToArray()));
    }

    static int Thrower(int depth)
    {
        if (depth == 0) throw new InvalidOperationException("deep");
        try { return Thrower(depth - 1); }
        finally { depth++; }
    }

    static void Exceptions(StringBuilder sb)
    {
        for (int i = 0; i < 3; i++)
        {
            try { Thrower(3); }
            catch (InvalidOperationException e) when (e.Message == "deep") { sb.Append(e.GetType().Name); }
            finally { sb.Append('f'); }
        }
        try { _ = int.Parse("nope"); } catch (FormatException) { sb.Append("fmt"); }
        try { _ = new List<int>()[3]; } catch (ArgumentOutOfRangeException e) { sb.Append(e.ParamName); }
        try { object o = "s"; _ = (int)o; } catch (InvalidCastException) { sb.Append("cast"); }
        try { _ = new Dictionary<string, int>()["missing"]; } catch (KeyNotFoundException) { sb.Append("key"); }
        try { throw new AggregateException(new Exception("a"), new Exception("b")); }
        catch (AggregateException ae) { sb.Append(ae.Flatten().InnerExceptions.Count); }
        sb.Append(new System.Diagnostics.StackTrace().FrameCount > 0);
    }

    static async Task<int> Delayed(int v)
    {
        await Task.Yield();
        await Task.Delay(1);
        return v * 2;
    }

    static async IAsyncEnumerable<int> Stream()
    {
        for (int i = 0; i < 5; i++) { await Task.Yield(); yield return i; }
    }

    static async Task Async(StringBuilder sb)
    {
        var tasks = Enumerable.Range(0, 20).Select(Delayed).ToArray();
        var results = await Task.WhenAll(tasks);
        sb.Append(results.Sum());
        await foreach (var i in Stream()) sb.Append(i);
        var vt = new ValueTask<int>(Delayed(3));
        sb.Append(await vt);
        using var cts = new CancellationTokenSource();
        cts.CancelAfter(1);
        try { await Task.Delay(10000, cts.Token); } catch (TaskCanceledException) { sb.Append("cancelled"); }
        var tcs = new TaskCompletionSource<string>();
        _ = Task.Run(() => tcs.SetResult("tcs"));
        sb.Append(await tcs.Task);
        var ch = System.Threading.Channels.Channel.CreateUnbounded<int>();
        _ = Task.Run(async () => { for (int i = 0; i < 10; i++) await ch.Writer.WriteAsync(i); ch.Writer.Complete(); });
        int sum = 0;
        await foreach (var x in ch.Reader.ReadAllAsync()) sum += x;
        sb.Append(sum);
        await Parallel.ForEachAsync(Enumerable.Range(0, 8), async (i, ct) => await Task.Yield());
    }

    static void Files(StringBuilder sb)
    {
        string dir = Path.Combine(Path.GetTempPath(), "gdmap-prof-" + Environment.ProcessId);
        Directory.CreateDirectory(dir);
        try
        {
            string p = Path.Combine(dir, "a.txt");
            File.WriteAllLines(p, Enumerable.Range(0, 50).Select(i => $"line {i}"));
            sb.Append(File.ReadAllLines(p).Length).Append(new FileInfo(p).Length);
            using (var fs = new FileStream(p, FileMode.Append))
            using (var w = new StreamWriter(fs)) w.WriteLine("tail");
            using (var r = new StreamReader(p)) { string? line; int n = 0; while ((line = r.ReadLine()) != null) n += line.Length; sb.Append(n); }
            File.WriteAllBytes(Path.Combine(dir, "b.bin"), new byte[] { 1, 2, 3 });
            sb.Append(Directory.GetFiles(dir).Length).Append(Path.GetExtension(p)).Append(Path.GetFileNameWithoutExtension(p));
            using var ms = new MemoryStream();
            using (var gz = new System.IO.Compression.GZipStream(ms, System.IO.Compression.CompressionLevel.Fastest, true))
                gz.Write(Encoding.ASCII.GetBytes(new string('z', 1000)));
            sb.Append(ms.Length < 1000);
        }
        finally { Directory.Delete(dir, true); }
    }

    static void Misc(StringBuilder sb)
    {
        var rnd = new Random(42);
        sb.Append(rnd.Next(100)).Append(Math.Round(Math.Sqrt(2), 4)).Append(BitConverter.ToString(BitConverter.GetBytes(0x1234)));
        var big = System.Numerics.BigInteger.Pow(3, 100);
        sb.Append(big.ToString().Length).Append(System.Numerics.Vector.IsHardwareAccelerated);
        var hash = System.Security.Cryptography.SHA256.HashData(Encoding.UTF8.GetBytes("abc"));
        sb.Append(Convert.ToHexString(hash)[..8]);
        var tuple = (a: 1, b: "two", c: 3.0);
        sb.Append(tuple).Append(Nullable.Compare<int>(1, null)).Append(Lazy());
        var sw = System.Diagnostics.Stopwatch.StartNew();
        sb.Append(sw.ElapsedTicks >= 0).Append(typeof(Program).GetMethods().Length > 0);
        sb.Append(new Uri("https://example.invalid/a/b?c=d").Segments.Length);
        var xml = System.Xml.Linq.XElement.Parse("<a><b x='1'/><b x='2'/></a>");
        sb.Append(xml.Elements("b").Sum(e => (int)e.Attribute("x")!));
        ReadOnlySpan<byte> utf8 = "span"u8;
        sb.Append(utf8.Length).Append(MemoryExtensions.IndexOf("haystack".AsSpan(), 's'));
    }

    static int Lazy() => new Lazy<int>(() => 7).Value;
}
