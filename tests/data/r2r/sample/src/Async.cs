using System.Threading.Tasks;

namespace Sample.Async
{
    public static class Waiter
    {
        // Compiled with runtime async (.NET 11): crossgen2 makes a Task-returning
        // thunk (the MethodDef entry point), the async variant (an instance entry
        // point, signature flag 0x100) and its resumption stub (no entry point).
        public static async Task<int> AddLater(Task<int> task, int n)
        {
            int value = await task;
            return value + n;
        }
    }
}
