using System;

namespace Sample;

public static class Program
{
    public static int Main(string[] args)
    {
        int total = 0;
        foreach (string arg in args)
            total += arg.Length;
        total += Helper.Twice(total);
        Console.WriteLine(
            Describe(total));
        Func<int, int> square = x => x * x;
        return square(total) > 100 ? 1 : 0;
    }

    static string Describe(int n)
    {
        string s = n.ToString();
#line 200 "Generated.txt"
        s += "?";
#line default
        return s + "!";
    }

    static int Hidden(int n)
    {
#line hidden
        n += 1;
#line default
        return n;
    }

    public static int Counter { get; set; }
}

public interface IShape
{
    double Area();
}
