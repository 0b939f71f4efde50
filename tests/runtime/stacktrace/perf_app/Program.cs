// The program of tests/cli/perf_script.sh: three hot loops, each in a
// method of its own and each on one line marked HOT, run for a fixed time
// so that `perf record` takes samples in them. Published ReadyToRun and run
// with tiered compilation off (DOTNET_TieredCompilation=0), so the samples
// fall in the precompiled code, never in a tier-1 replacement.
// Prints "hot METHOD LINE" for each loop (the lines the samples must
// resolve to), then runs them for the seconds its argument says (default 2).
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;

static class Hot
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static long SumSquares(int n)
    {
        long s = 0;
        for (int i = 0; i < n; i++) s += (long)i * i % 7; // HOT SumSquares
        return s;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static uint Hash(int n)
    {
        uint h = 2166136261;
        for (int i = 0; i < n; i++) h = (h ^ (uint)i) * 16777619 + (h >> 13); // HOT Hash
        return h;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static double Harmonic(int n)
    {
        double x = 0;
        for (int i = 1; i <= n; i++) x += 1.0 / i; // HOT Harmonic
        return x;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static long Round(int n) => SumSquares(n) + Hash(n) + (long)Harmonic(n);
}

static class Program
{
    static int Main(string[] args)
    {
        double seconds = args.Length > 0 ? double.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 2;
        var clock = Stopwatch.StartNew();
        long total = 0;
        int rounds = 0;
        while (clock.Elapsed.TotalSeconds < seconds)
        {
            total += Hot.Round(2_000_000);
            rounds++;
        }
        Console.WriteLine($"rounds {rounds} total {total}");
        return 0;
    }
}
