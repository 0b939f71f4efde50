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
        RuntimeAsync.Run(sb).GetAwaiter().GetResult();
        Files(sb);
        Misc(sb);
        // --hot: call the same framework methods for a while, so tiered
        // compilation replaces their R2R code with tier-1 code (a second code
        // version: the profiler must still report the R2R one).
        if (args.Contains("--hot"))
            for (var until = DateTime.UtcNow.AddSeconds(2); DateTime.UtcNow < until; Thread.Sleep(50))
                for (int i = 0; i < 2000; i++) { Collections(new StringBuilder()); if (i % 100 == 0) Strings(new StringBuilder()); }
        Console.WriteLine($"workload: {sb.Length} chars, hash {sb.ToString().GetHashCode() & 0xffff:x4}, .NET {Environment.Version}");
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

// .NET 11 runtime async: System.Private.CoreLib 11 compiles some of its own
// async methods as "async variants" (instance entry points, signature flag
// 0x100), each followed by a separately compiled resumption stub. These are
// their public callers, made to suspend (the streams, readers and writers
// below complete only after a Task.Yield), so that the variants run and are
// resumed through their stubs. On .NET 10 the same calls run ordinary
// state-machine code.
static class RuntimeAsync
{
    // A stream whose every operation completes asynchronously.
    sealed class SlowStream : Stream
    {
        readonly MemoryStream inner;
        readonly bool seekable;
        public SlowStream(byte[] data, bool seekable = true) { inner = new MemoryStream(); inner.Write(data); inner.Position = 0; this.seekable = seekable; }
        public byte[] Written => inner.ToArray();
        public override bool CanRead => true;
        public override bool CanSeek => seekable;
        public override bool CanWrite => true;
        public override long Length => inner.Length;
        public override long Position { get => inner.Position; set => inner.Position = value; }
        public override void Flush() { }
        public override int Read(byte[] buffer, int offset, int count) => inner.Read(buffer, offset, count);
        public override long Seek(long offset, SeekOrigin origin) => inner.Seek(offset, origin);
        public override void SetLength(long value) => inner.SetLength(value);
        public override void Write(byte[] buffer, int offset, int count) => inner.Write(buffer, offset, count);
        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken ct = default)
        { await Task.Yield(); return inner.Read(buffer.Span[..Math.Min(buffer.Length, 7)]); }
        public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken ct = default)
        { await Task.Yield(); inner.Write(buffer.Span); }
        public override async Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken ct)
        { await Task.Yield(); return inner.Read(buffer, offset, Math.Min(count, 7)); }
        public override async Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken ct)
        { await Task.Yield(); inner.Write(buffer, offset, count); }
        public override async Task FlushAsync(CancellationToken ct) => await Task.Yield();
    }

    // Overrides only the array forms: Stream's own Memory forms run, and take
    // their slow path for memory that is not an array.
    sealed class ArraySlowStream : Stream
    {
        readonly MemoryStream inner = new MemoryStream(Encoding.ASCII.GetBytes("array-only stream contents"));
        public override bool CanRead => true;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
        public override void Flush() { }
        public override int Read(byte[] buffer, int offset, int count) => inner.Read(buffer, offset, count);
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) { }
        public override async Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken ct)
        { await Task.Yield(); return inner.Read(buffer, offset, count); }
        public override async Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken ct) => await Task.Yield();
    }

    // Memory that is not an array (MemoryMarshal.TryGetArray fails).
    sealed class NotArrayMemory(int size) : System.Buffers.MemoryManager<byte>
    {
        readonly byte[] data = new byte[size];
        public override Span<byte> GetSpan() => data;
        public override System.Buffers.MemoryHandle Pin(int elementIndex = 0) => throw new NotSupportedException();
        public override void Unpin() { }
        protected override void Dispose(bool disposing) { }
    }

    // Only the abstract minimum: TextReader's and TextWriter's own async
    // methods run.
    sealed class MinimalReader(string text) : TextReader
    {
        int pos;
        public override int Peek() => pos < text.Length ? text[pos] : -1;
        public override int Read() => pos < text.Length ? text[pos++] : -1;
    }
    sealed class MinimalWriter : TextWriter
    {
        public readonly StringBuilder Text = new();
        public override Encoding Encoding => Encoding.UTF8;
        public override void Write(char value) => Text.Append(value);
    }

    public static async Task Run(StringBuilder sb)
    {
        var data = Encoding.UTF8.GetBytes(string.Join("\n", Enumerable.Range(0, 40).Select(i => $"line {i} of the slow stream")));
        // BufferedStream over a slow stream.
        var buffered = new BufferedStream(new SlowStream(data), 16);
        var buf = new byte[64];
        sb.Append(await buffered.ReadAsync(buf.AsMemory(0, 40)));
        sb.Append(await buffered.ReadAsync(buf.AsMemory(0, 5)));
        var bw = new BufferedStream(new SlowStream(Array.Empty<byte>()), 16);
        await bw.WriteAsync(data.AsMemory(0, 10));
        await bw.WriteAsync(data.AsMemory(0, 50));
        await bw.FlushAsync();
        await bw.WriteAsync(data.AsMemory(0, 5));
        await bw.CopyToAsync(Stream.Null);
        await bw.DisposeAsync();
        await new BufferedStream(new SlowStream(data), 32).CopyToAsync(new SlowStream(Array.Empty<byte>()));
        // Stream's own CopyToAsync, and its Memory forms over array-only overrides.
        await new SlowStream(data).CopyToAsync(Stream.Null, 64);
        var arrayOnly = new ArraySlowStream();
        using (var mem = new NotArrayMemory(16))
        {
            sb.Append(await arrayOnly.ReadAsync(mem.Memory));
            await arrayOnly.WriteAsync(mem.Memory);
        }
        // StreamReader / StreamWriter.
        var reader = new StreamReader(new SlowStream(data), Encoding.UTF8, false, 16);
        sb.Append(await reader.ReadLineAsync());
        var chars = new char[20];
        sb.Append(await reader.ReadAsync(chars.AsMemory()));
        sb.Append(await reader.ReadBlockAsync(chars.AsMemory()));
        sb.Append((await reader.ReadToEndAsync()).Length);
        var writer = new StreamWriter(new SlowStream(Array.Empty<byte>()), Encoding.UTF8, 16);
        for (int i = 0; i < 20; i++) await writer.WriteAsync('w');
        await writer.WriteAsync("a string longer than the buffer".AsMemory());
        await writer.WriteLineAsync("line");
        await writer.FlushAsync();
        await writer.DisposeAsync();
        // TextReader / TextWriter base methods.
        var minimal = new MinimalReader("minimal reader text");
        sb.Append(await minimal.ReadBlockAsync(chars.AsMemory(0, 7)));
        sb.Append(await minimal.ReadToEndAsync(CancellationToken.None));
        var mw = new MinimalWriter();
        await mw.WriteAsync(new StringBuilder("sb"), CancellationToken.None);
        await mw.WriteLineAsync(new StringBuilder("sb line"), CancellationToken.None);
        sb.Append(mw.Text.Length);
        // A broadcasting writer, an indented writer.
        var w1 = new StreamWriter(new SlowStream(Array.Empty<byte>()), Encoding.UTF8, 16);
        var w2 = new MinimalWriter();
        var broadcast = TextWriter.CreateBroadcasting(w1, w2);
        await broadcast.WriteAsync('c');
        await broadcast.WriteAsync("s");
        await broadcast.WriteAsync(new StringBuilder("b"), CancellationToken.None);
        await broadcast.WriteAsync(new[] { 'x', 'y' }, 0, 2);
        await broadcast.WriteAsync("m".AsMemory(), CancellationToken.None);
        await broadcast.WriteLineAsync('c');
        await broadcast.WriteLineAsync("s");
        await broadcast.WriteLineAsync(new StringBuilder("b"), CancellationToken.None);
        await broadcast.WriteLineAsync(new[] { 'x' }, 0, 1);
        await broadcast.WriteLineAsync("m".AsMemory(), CancellationToken.None);
        await broadcast.WriteLineAsync();
        await broadcast.FlushAsync();
        await broadcast.FlushAsync(CancellationToken.None);
        await broadcast.DisposeAsync();
        sb.Append(w2.Text.Length);
        var indented = new System.CodeDom.Compiler.IndentedTextWriter(new StreamWriter(new SlowStream(Array.Empty<byte>()), Encoding.UTF8, 16), "  ");
        indented.Indent = 2;
        await indented.WriteAsync('c');
        await indented.WriteAsync("s");
        await indented.WriteAsync(new[] { 'x', 'y' }, 0, 2);
        await indented.WriteAsync("m".AsMemory(), CancellationToken.None);
        await indented.WriteAsync(new StringBuilder("b"), CancellationToken.None);
        await indented.WriteLineAsync();
        await indented.WriteLineAsync('c');
        await indented.WriteLineAsync("s");
        await indented.WriteLineAsync(new[] { 'x' }, 0, 1);
        await indented.WriteLineAsync("m".AsMemory(), CancellationToken.None);
        await indented.WriteLineAsync(new StringBuilder("b"), CancellationToken.None);
        await indented.FlushAsync();
        // A transcoding stream.
        var transcoding = Encoding.CreateTranscodingStream(new SlowStream(Encoding.Unicode.GetBytes("transcoded text")), Encoding.Unicode, Encoding.UTF8);
        sb.Append(await transcoding.ReadAsync(buf.AsMemory()));
        await transcoding.WriteAsync(Encoding.UTF8.GetBytes("back").AsMemory());
        await transcoding.DisposeAsync();
        // Files: async file I/O completes on the thread pool.
        string dir = Path.Combine(Path.GetTempPath(), "gdmap-prof-async-" + Environment.ProcessId);
        Directory.CreateDirectory(dir);
        try
        {
            string p = Path.Combine(dir, "t.txt");
            await File.WriteAllTextAsync(p, "some text\nfor the file\n");
            sb.Append((await File.ReadAllTextAsync(p)).Length);
            await File.WriteAllLinesAsync(p, Enumerable.Range(0, 30).Select(i => $"line {i}"));
            sb.Append((await File.ReadAllLinesAsync(p)).Length);
            await File.WriteAllBytesAsync(p, data);
            await File.AppendAllBytesAsync(p, data.AsMemory(0, 10));
            sb.Append((await File.ReadAllBytesAsync(p)).Length);
            if (File.Exists("/proc/self/stat")) sb.Append((await File.ReadAllBytesAsync("/proc/self/stat")).Length > 0);
            await using (var fs = new FileStream(p, FileMode.Open, FileAccess.ReadWrite, FileShare.None, 16, useAsync: true))
            {
                sb.Append(await fs.ReadAsync(buf.AsMemory(0, 8)));
                await fs.WriteAsync(data.AsMemory(0, 4));
                await fs.FlushAsync();
                fs.Position = 0;
                await fs.CopyToAsync(Stream.Null);
            }
            // Buffered FileStreams over a pipe: not seekable.
            using var server = new System.IO.Pipes.AnonymousPipeServerStream(System.IO.Pipes.PipeDirection.Out);
            using var client = new System.IO.Pipes.AnonymousPipeClientStream(System.IO.Pipes.PipeDirection.In, server.ClientSafePipeHandle);
            using var pipeOut = new FileStream(new Microsoft.Win32.SafeHandles.SafeFileHandle(server.SafePipeHandle.DangerousGetHandle(), false), FileAccess.Write, 16);
            using var pipeIn = new FileStream(new Microsoft.Win32.SafeHandles.SafeFileHandle(client.SafePipeHandle.DangerousGetHandle(), false), FileAccess.Read, 16);
            var readTask = pipeIn.ReadAsync(buf.AsMemory(0, 8)).AsTask();
            await Task.Delay(5);
            await pipeOut.WriteAsync(data.AsMemory(0, 8));
            await pipeOut.FlushAsync();
            sb.Append(await readTask);
        }
        finally { Directory.Delete(dir, true); }
        // SemaphoreSlim.WaitAsync with a timeout that must wait.
        var sem = new SemaphoreSlim(0);
        var wait = sem.WaitAsync(TimeSpan.FromSeconds(10));
        _ = Task.Run(async () => { await Task.Delay(5); sem.Release(); });
        sb.Append(await wait);
        using (var cts = new CancellationTokenSource())
        {
            var wait2 = sem.WaitAsync(cts.Token);
            _ = Task.Run(async () => { await Task.Delay(5); sem.Release(); });
            sb.Append(wait2.IsCompleted);
            await wait2;
        }
        // Other images' async variants: compression and XML over slow streams.
        var gzOut = new SlowStream(Array.Empty<byte>());
        var gz = new System.IO.Compression.GZipStream(gzOut, System.IO.Compression.CompressionLevel.Fastest, leaveOpen: true);
        await gz.WriteAsync(data);
        await gz.FlushAsync();
        await gz.DisposeAsync();
        var gzIn = new System.IO.Compression.GZipStream(new SlowStream(gzOut.Written), System.IO.Compression.CompressionMode.Decompress);
        sb.Append(await gzIn.ReadAsync(buf.AsMemory()));
        await gzIn.CopyToAsync(Stream.Null);
        await gzIn.DisposeAsync();
        var zipBytes = new MemoryStream();
        await using (var zip = await System.IO.Compression.ZipArchive.CreateAsync(zipBytes, System.IO.Compression.ZipArchiveMode.Create, true, null))
        {
            var entry = zip.CreateEntry("a.txt");
            await using (var es = await entry.OpenAsync()) await es.WriteAsync(data);
        }
        zipBytes.Position = 0;
        await using (var zip = await System.IO.Compression.ZipArchive.CreateAsync(new SlowStream(zipBytes.ToArray()), System.IO.Compression.ZipArchiveMode.Read, false, null))
        {
            await using var es = await zip.Entries[0].OpenAsync();
            sb.Append((await new StreamReader(es).ReadToEndAsync()).Length);
        }
        var xml = Encoding.UTF8.GetBytes("<a x='1'><b>text</b><c><![CDATA[cdata]]></c><d/></a>");
        using (var xr = System.Xml.XmlReader.Create(new StreamReader(new SlowStream(xml)), new System.Xml.XmlReaderSettings { Async = true }))
            while (await xr.ReadAsync())
                if (xr.HasValue) sb.Append(await xr.GetValueAsync());
        var xmlOut = new StreamWriter(new SlowStream(Array.Empty<byte>()), Encoding.UTF8, 16);
        await using (var xw = System.Xml.XmlWriter.Create(xmlOut, new System.Xml.XmlWriterSettings { Async = true }))
        {
            await xw.WriteStartElementAsync(null, "a", null);
            await xw.WriteAttributeStringAsync(null, "x", null, "1");
            await xw.WriteStringAsync("text");
            await xw.WriteEndElementAsync();
            await xw.FlushAsync();
        }
        var xdoc = await System.Xml.Linq.XDocument.LoadAsync(new SlowStream(xml), System.Xml.Linq.LoadOptions.None, CancellationToken.None);
        await xdoc.SaveAsync(new SlowStream(Array.Empty<byte>()), System.Xml.Linq.SaveOptions.None, CancellationToken.None);
        sb.Append(xdoc.Root!.Elements().Count());
        // CancellationTokenRegistration.DisposeAsync while its callback runs.
        using (var cts = new CancellationTokenSource())
        {
            using var started = new ManualResetEventSlim();
            var reg = cts.Token.Register(() => { started.Set(); Thread.Sleep(30); });
            var cancel = Task.Run(cts.Cancel);
            started.Wait();
            await reg.DisposeAsync();
            await cancel;
            sb.Append("reg");
        }
    }
}
