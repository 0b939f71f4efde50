using System;
using System.Collections.Generic;

namespace Sample.A
{
    public struct Point { public int X, Y; public Point(int x, int y) { X = x; Y = y; } }

    public static class Shapes
    {
        public static int Area(int w, int h) => w * h;

        public static int SafeDivide(int a, int b)
        {
            try { return a / b; }
            catch (DivideByZeroException) { return 0; }
            finally { Counter++; }
        }

        public static int Counter;

        public static T Max<T>(List<T> items) where T : IComparable<T>
        {
            T best = items[0];
            foreach (T item in items) if (item.CompareTo(best) > 0) best = item;
            return best;
        }

        public static int Sum(Point[] points)
        {
            int sum = 0;
            for (int i = 0; i < points.Length; i++) sum += points[i].X + points[i].Y;
            return sum;
        }

        public static int Use() => Max(new List<int> { 3, 1, 2 }) + Max(new List<string> { "a", "b" }).Length;
    }
}
