// The child process of tests/cli/runtime_live.sh: JIT-compiles a few
// methods of its own (a loop, a generic method over two types, a funclet),
// says "ready PID", then waits for its stdin to close, so that gdmap reads
// it live and from a core dump while nothing changes.
using System;
using System.Collections.Generic;

static class Live
{
    static int Loop(int n)
    {
        int s = 0;
        for (int i = 0; i < n; i++) s += i % 7 == 0 ? i : 1;
        return s;
    }

    static T Pick<T>(List<T> items, int i) => items[i % items.Count];

    static int Guarded(string s)
    {
        try { return int.Parse(s); }
        catch (FormatException) { return -1; }
    }

    static int Main()
    {
        int total = Loop(1000) + Pick(new List<int> { 1, 2, 3 }, 4) + Pick(new List<string> { "a" }, 0).Length;
        total += Guarded("12") + Guarded("x");
        Console.WriteLine($"ready {Environment.ProcessId} {total}");
        Console.Out.Flush();
        Console.In.ReadToEnd();
        return 0;
    }
}
