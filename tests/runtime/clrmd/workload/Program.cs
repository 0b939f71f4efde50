// The ClrMD comparison's workload: touches LINQ, collections, Regex, JSON,
// XML, async, reflection, text, numerics and I/O so that, with
// DOTNET_ReadyToRun=0, the framework's methods on those paths are
// JIT-compiled (over 10,000 bodies); then prints "ready PID" and waits for
// its standard input to close (make_dump.sh writes the core meanwhile).
using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Globalization;
using System.Numerics;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using System.Xml;
using System.Xml.Linq;

public record Person(string Name, int Age, List<string> Tags, Dictionary<string, double> Scores);

public static class Program
{
    static int sink;

    static void Linq()
    {
        var xs = Enumerable.Range(0, 1000).ToList();
        sink += xs.Where(x => x % 3 == 0).Select(x => x * 2).OrderByDescending(x => x).ThenBy(x => x % 7).Take(50).Sum();
        sink += xs.GroupBy(x => x % 10).ToDictionary(g => g.Key, g => g.Count()).Count;
        sink += xs.Join(xs, a => a, b => b * 2, (a, b) => a + b).Distinct().Count();
        sink += xs.Zip(xs.Skip(1)).Aggregate(0, (s, p) => s ^ (p.First + p.Second));
        sink += xs.Chunk(7).Select(c => c.Max()).Min() + xs.ToLookup(x => x % 5)[2].Count();
        sink += xs.AsParallel().Where(x => x % 2 == 0).Count();
        sink += xs.Select(x => x.ToString()).OrderBy(s => s, StringComparer.Ordinal).First().Length;
        sink += (int)xs.Average() + xs.Union(new[] { -1 }).Intersect(xs).Except(new[] { 5 }).Count();
        sink += xs.Cast<object>().OfType<int>().Reverse().SkipWhile(x => x > 10).TakeWhile(x => x > 0).LongCount() > 0 ? 1 : 0;
    }

    static void Collections()
    {
        var d = new Dictionary<string, int>(); var sd = new SortedDictionary<int, string>(); var sl = new SortedList<string, int>();
        var hs = new HashSet<long>(); var ss = new SortedSet<double>(); var q = new Queue<int>(); var st = new Stack<string>();
        var ll = new LinkedList<int>(); var pq = new PriorityQueue<string, int>(); var cd = new ConcurrentDictionary<int, string>();
        var cq = new ConcurrentQueue<int>(); var cb = new ConcurrentBag<int>();
        for (int i = 0; i < 500; i++)
        {
            d[i.ToString()] = i; sd[i] = i.ToString(); sl["k" + i] = i; hs.Add(i * 7L); ss.Add(i / 3.0);
            q.Enqueue(i); st.Push("s" + i); ll.AddLast(i); pq.Enqueue("p" + i, -i); cd.TryAdd(i, "v"); cq.Enqueue(i); cb.Add(i);
        }
        sink += d.Count + sd.First().Key + sl.IndexOfKey("k3") + hs.Count + ss.GetViewBetween(1, 10).Count + q.Dequeue()
              + st.Pop().Length + ll.First!.Value + pq.Dequeue().Length + cd.GetOrAdd(1000, k => "x").Length + (cq.TryDequeue(out var a) ? a : 0) + cb.Count;
        var im = ImmutableList.CreateRange(Enumerable.Range(0, 100)).Add(5).Remove(3);
        var imd = ImmutableDictionary.CreateRange(d).SetItem("zz", 1);
        var ia = ImmutableArray.Create(1, 2, 3).Add(4);
        var ish = ImmutableHashSet.Create(1, 2, 3).Union(new[] { 4, 5 });
        var isd = ImmutableSortedDictionary.CreateRange(sd);
        sink += im.Count + imd.Count + ia.Length + ish.Count + isd.Count;
        var arr = Enumerable.Range(0, 300).Reverse().ToArray();
        Array.Sort(arr); sink += Array.BinarySearch(arr, 77);
        var list = arr.Select(x => (double)x).ToList(); list.Sort((x, y) => y.CompareTo(x)); sink += (int)list[0];
        var bits = new System.Collections.BitArray(100); bits.Set(3, true); sink += bits.Get(3) ? 1 : 0;
        var ht = new System.Collections.Hashtable { ["a"] = 1 }; var al = new System.Collections.ArrayList { 1, "x" }; sink += ht.Count + al.Count;
        Span<int> span = stackalloc int[16]; span.Fill(3); span.Reverse(); sink += span.IndexOf(3) + SpanSum(span);
    }

    static int SpanSum(Span<int> s) { int t = 0; foreach (var x in s) t += x; return t; }

    static void Regexes()
    {
        string text = string.Join(" ", Enumerable.Range(0, 200).Select(i => $"user{i}@example{i % 7}.com 2024-{i % 12 + 1:00}-{i % 28 + 1:00}"));
        var patterns = new[] { @"\w+@\w+\.com", @"(\d{4})-(\d{2})-(\d{2})", @"(?<user>user\d+)", @"^\s*$", @"[aeiou]{2,}", @"(?i)EXAMPLE[0-3]" };
        foreach (var p in patterns)
        {
            sink += Regex.Matches(text, p).Count;
            sink += new Regex(p, RegexOptions.Compiled).Matches(text).Count;
            sink += new Regex(p, RegexOptions.NonBacktracking).Count(text);
            sink += Regex.Replace(text, p, m => m.Value.ToUpperInvariant()).Length;
        }
        sink += Regex.Split(text, @"\s+").Length + (Regex.IsMatch(text, "user1[0-9]") ? 1 : 0);
        sink += Regex.Escape("a.b*c").Length;
    }

    static void Json()
    {
        var people = Enumerable.Range(0, 50).Select(i => new Person("n" + i, i, new List<string> { "a", "b" + i }, new Dictionary<string, double> { ["x"] = i * 1.5 })).ToList();
        var opts = new JsonSerializerOptions { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };
        string json = JsonSerializer.Serialize(people, opts);
        var back = JsonSerializer.Deserialize<List<Person>>(json, opts)!;
        sink += back.Count + json.Length;
        using var doc = JsonDocument.Parse(json);
        foreach (var e in doc.RootElement.EnumerateArray()) sink += e.GetProperty("age").GetInt32();
        var node = JsonNode.Parse(json)!; node[0]!["name"] = "changed"; sink += node.ToJsonString().Length;
        var buf = new MemoryStream();
        using (var w = new Utf8JsonWriter(buf)) { w.WriteStartObject(); w.WriteNumber("a", 1.25); w.WriteString("b", DateTime.UnixEpoch); w.WriteEndObject(); }
        var r = new Utf8JsonReader(buf.ToArray()); while (r.Read()) sink++;
        sink += JsonSerializer.Serialize(new { A = 1, B = new[] { 1.5, 2.5 }, C = (int?)null, D = Guid.Empty, E = TimeSpan.FromSeconds(3) }).Length;
    }

    static void Xml()
    {
        var x = new XElement("root", Enumerable.Range(0, 100).Select(i => new XElement("item", new XAttribute("id", i), new XElement("v", i * 2))));
        string s = x.ToString();
        var parsed = XDocument.Parse(s);
        sink += parsed.Descendants("item").Count(e => (int)e.Attribute("id")! % 2 == 0);
        var xd = new XmlDocument(); xd.LoadXml(s);
        sink += xd.SelectNodes("//item[@id>50]")!.Count;
        using var xr = XmlReader.Create(new StringReader(s)); while (xr.Read()) if (xr.NodeType == XmlNodeType.Element) sink++;
        var sb = new StringBuilder();
        using (var xw = XmlWriter.Create(sb, new XmlWriterSettings { Indent = true })) { xw.WriteStartElement("a"); xw.WriteAttributeString("b", "c"); xw.WriteEndElement(); }
        sink += sb.Length;
        var ser = new System.Xml.Serialization.XmlSerializer(typeof(List<int>));
        var sw = new StringWriter(); ser.Serialize(sw, new List<int> { 1, 2, 3 }); sink += ((List<int>)ser.Deserialize(new StringReader(sw.ToString()))!).Count;
    }

    static async Task<int> AsyncWork()
    {
        int t = 0;
        var tasks = Enumerable.Range(0, 20).Select(async i => { await Task.Delay(1); await Task.Yield(); return i; }).ToList();
        t += (await Task.WhenAll(tasks)).Sum();
        var ch = System.Threading.Channels.Channel.CreateUnbounded<int>();
        _ = Task.Run(async () => { for (int i = 0; i < 100; i++) await ch.Writer.WriteAsync(i); ch.Writer.Complete(); });
        await foreach (var v in ch.Reader.ReadAllAsync()) t += v;
        await foreach (var v in Gen()) t += v;
        using var sem = new SemaphoreSlim(1); await sem.WaitAsync(); sem.Release();
        var tcs = new TaskCompletionSource<int>(); ThreadPool.QueueUserWorkItem(_ => tcs.SetResult(5)); t += await tcs.Task;
        await Parallel.ForEachAsync(Enumerable.Range(0, 10), async (i, ct) => { await Task.Yield(); Interlocked.Add(ref sink, i); });
        t += await new ValueTask<int>(3);
        using var cts = new CancellationTokenSource(1000); try { await Task.Delay(1, cts.Token); } catch (OperationCanceledException) { }
        return t;
    }

    static async IAsyncEnumerable<int> Gen() { for (int i = 0; i < 10; i++) { await Task.Yield(); yield return i; } }

    static void Reflection()
    {
        foreach (var t in new[] { typeof(string), typeof(List<int>), typeof(Dictionary<string, object>), typeof(Regex), typeof(XElement), typeof(JsonSerializer), typeof(Program) })
        {
            sink += t.GetMethods().Length + t.GetProperties().Length + t.GetFields(BindingFlags.NonPublic | BindingFlags.Instance).Length + t.GetCustomAttributes(true).Length;
            foreach (var c in t.GetConstructors()) sink += c.GetParameters().Length;
        }
        var m = typeof(Math).GetMethod("Max", new[] { typeof(int), typeof(int) })!; sink += (int)m.Invoke(null, new object[] { 3, 4 })!;
        var o = Activator.CreateInstance(typeof(List<>).MakeGenericType(typeof(string)))!; sink += o.GetType().GetGenericArguments().Length;
        var p = typeof(Person).GetProperty("Name")!; sink += ((string)p.GetValue(new Person("abc", 1, new(), new()))!).Length;
        var del = (Func<int, int, int>)Delegate.CreateDelegate(typeof(Func<int, int, int>), typeof(Math).GetMethod("Min", new[] { typeof(int), typeof(int) })!);
        sink += del(1, 2);
        var expr = System.Linq.Expressions.Expression.Lambda<Func<int, int>>(System.Linq.Expressions.Expression.Multiply(
            System.Linq.Expressions.Expression.Parameter(typeof(int), "x") is var px ? px : null!, System.Linq.Expressions.Expression.Constant(3)), px);
        sink += expr.Compile()(4);
        sink += Assembly.GetExecutingAssembly().GetTypes().Length + AppDomain.CurrentDomain.GetAssemblies().Length;
    }

    static void TextAndNumbers()
    {
        var sb = new StringBuilder();
        for (int i = 0; i < 200; i++) sb.AppendFormat(CultureInfo.InvariantCulture, "{0:N2} {1:X} {2:yyyy-MM-dd} {3:E3};", i * 1.1, i, DateTime.UnixEpoch.AddDays(i), i / 7.0);
        string s = sb.ToString();
        sink += s.Split(';').Length + s.IndexOf("1A", StringComparison.Ordinal) + s.ToUpperInvariant().GetHashCode() % 2 + s.Replace("0", "zero").Length;
        sink += Encoding.UTF8.GetBytes(s).Length + Encoding.Unicode.GetString(Encoding.Unicode.GetBytes("héllo")).Length + Convert.ToBase64String(Encoding.ASCII.GetBytes(s)).Length;
        sink += double.Parse("3.25", CultureInfo.InvariantCulture) > 3 ? 1 : 0; sink += int.Parse("42") + (int)decimal.Parse("1.5", CultureInfo.InvariantCulture);
        sink += DateTime.Parse("2024-03-04", CultureInfo.InvariantCulture).Day + TimeSpan.Parse("01:02:03").Seconds + Guid.NewGuid().ToString().Length;
        var big = BigInteger.Pow(3, 200) % 1000007; sink += (int)big;
        var c = new Complex(1, 2) * new Complex(3, 4); sink += (int)c.Real;
        var v = new Vector3(1, 2, 3) * 2f; sink += (int)Vector3.Dot(v, v); sink += (int)Matrix4x4.CreateRotationX(0.5f).M22;
        sink += (int)Math.Round(Math.Sin(1) * 100 + Math.Log10(1000) + Math.Pow(2, 10));
        using var sha = SHA256.Create(); sink += sha.ComputeHash(Encoding.UTF8.GetBytes(s))[0];
        sink += MD5.HashData(new byte[] { 1, 2, 3 })[0] + RandomNumberGenerator.GetInt32(10);
        sink += string.Format("{0,10}|{1,-5}", "a", 3).Length + $"{3.14159:F2}".Length + string.Concat(Enumerable.Repeat("ab", 10)).Length;
        sink += s.AsSpan().Count(';') + string.Compare("a", "B", StringComparison.OrdinalIgnoreCase);
        var rnd = new Random(3); sink += rnd.Next(100) + (int)(rnd.NextDouble() * 10);
        sink += Uri.TryCreate("https://example.com/a?b=c", UriKind.Absolute, out var u) ? u.Query.Length : 0;
    }

    static void IO()
    {
        string dir = Path.Combine(Path.GetTempPath(), "clrmd-workload-" + Environment.ProcessId);
        Directory.CreateDirectory(dir);
        string f = Path.Combine(dir, "a.txt");
        File.WriteAllLines(f, Enumerable.Range(0, 100).Select(i => "line " + i));
        sink += File.ReadAllLines(f).Length + File.ReadAllText(f).Length + new FileInfo(f).Length.GetHashCode() % 3;
        using (var fs = new FileStream(f, FileMode.Open)) using (var sr = new StreamReader(fs)) sink += sr.ReadLine()!.Length;
        using (var ms = new MemoryStream()) { using (var gz = new System.IO.Compression.GZipStream(ms, System.IO.Compression.CompressionLevel.Fastest, true)) gz.Write(new byte[1000]); sink += (int)ms.Length; }
        using (var bw = new BinaryWriter(new MemoryStream())) { bw.Write(1.5); bw.Write("x"); sink += (int)bw.BaseStream.Length; }
        sink += Directory.GetFiles(dir).Length + Path.GetExtension(f).Length;
        Directory.Delete(dir, true);
    }

    public static async Task<int> Main()
    {
        Linq(); Collections(); Regexes(); Json(); Xml(); sink += await AsyncWork(); Reflection(); TextAndNumbers(); IO();
        Console.Error.WriteLine($"workload: sink {sink}");
        Console.WriteLine($"ready {Environment.ProcessId}");
        Console.Out.Flush();
        Console.In.ReadToEnd();
        return 0;
    }
}
