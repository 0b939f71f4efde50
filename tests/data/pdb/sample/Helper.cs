using System;

namespace Sample;

static class Helper
{
    public static int Twice(int x)
    {
        if (x < 0)
            throw new ArgumentOutOfRangeException(nameof(x));
        return x * 2;
    }
}
