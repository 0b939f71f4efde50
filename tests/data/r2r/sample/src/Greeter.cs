using System;
using Sample.A;

namespace Sample.B
{
    public class Greeter<T>
    {
        private readonly T _value;
        public Greeter(T value) { _value = value; }
        public string Greet(string name)
        {
            if (name == null) throw new ArgumentNullException(nameof(name));
            return "Hello " + name + " " + _value;
        }
    }

    public static class Program
    {
        public static int Run(int n)
        {
            int total = 0;
            for (int i = 0; i < n; i++) total += Shapes.Area(i, i + 1);
            total += Shapes.SafeDivide(total, n - n);
            return total + new Greeter<int>(n).Greet("x").Length + new Greeter<string>("s").Greet("y").Length;
        }
    }
}
