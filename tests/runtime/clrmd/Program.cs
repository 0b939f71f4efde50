// The ClrMD peer: every method with native code that ClrMD can reach in a
// core dump, one JSON line each (see README.md).
//
//   clrmd_peer CORE [-o OUT.jsonl] [--dac PATH] [--heap-types] [--all]
//
// Methods are reached the only ways ClrMD 4.2 offers (it has no walk of the
// JIT's code heaps: ClrJitManager lists heaps, not methods): every module's
// TypeDef -> MethodTable map, each type's Methods (deduplicated by
// MethodDesc); with --heap-types also the types of every object on the GC
// heap (closed generic instantiations the TypeDef map does not list).
// ClrMethod.NativeCode is the method's current code only, one version each.
// By default only CompilationType Jit is written (gdmap's --jit-only);
// --all writes the ReadyToRun ("Ngen") ones too.
//
// Each line: module (of the MethodDesc's own type), walkedModule (of the
// type whose Methods listed it: a derived type's for an inherited method), token, methodDesc, start (NativeCode), hotStart,
// size (HotColdInfo hot + cold), coldStart, coldSize, compilationType and
// ilOffsetMap [[il, start, end], ...] as ClrMethod.ILOffsetMap gives it:
// il -1 NO_MAPPING, -2 PROLOG, -3 EPILOG; start and end are ABSOLUTE
// addresses (ILToNativeMap.StartAddress/EndAddress), not offsets.
// Timings go to stderr: open + CreateRuntime, module/method walk, IL maps.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using Microsoft.Diagnostics.Runtime;

static class Peer
{
    static int Main(string[] args)
    {
        string? core = null, output = null, dac = null;
        bool heapTypes = false, all = false;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "-o": output = args[++i]; break;
                case "--dac": dac = args[++i]; break;
                case "--heap-types": heapTypes = true; break;
                case "--all": all = true; break;
                default:
                    if (core != null || args[i].StartsWith('-'))
                    {
                        Console.Error.WriteLine("usage: clrmd_peer CORE [-o OUT.jsonl] [--dac PATH] [--heap-types] [--all]");
                        return 2;
                    }
                    core = args[i];
                    break;
            }
        }
        if (core == null)
        {
            Console.Error.WriteLine("usage: clrmd_peer CORE [-o OUT.jsonl] [--dac PATH] [--heap-types] [--all]");
            return 2;
        }

        var total = Stopwatch.StartNew();
        var sw = Stopwatch.StartNew();
        using DataTarget target = DataTarget.LoadDump(core);
        if (target.ClrVersions.Length == 0)
        {
            Console.Error.WriteLine($"clrmd_peer: {core}: no CLR found in the dump");
            return 1;
        }
        ClrInfo info = target.ClrVersions[0];
        // ClrMD checks the DAC's version against the runtime module's version
        // resource, which createdump's core does not hold (ClrMD reads 0.0 and
        // refuses every DAC, "Mismatched dac ... expected: 0.0"); so the DAC
        // beside the dump's libcoreclr.so (or --dac) is taken with
        // ignoreMismatch when the plain CreateRuntime() fails.
        ClrRuntime runtime;
        string dacUsed = "found by ClrMD";
        try
        {
            if (dac != null) throw new FileNotFoundException("--dac given");
            runtime = info.CreateRuntime();
        }
        catch (Exception e) when (e is FileNotFoundException || e is ClrDiagnosticsException)
        {
            dacUsed = dac ?? Path.Combine(Path.GetDirectoryName(info.ModuleInfo.FileName) ?? ".", "libmscordaccore.so");
            runtime = info.CreateRuntime(dacUsed, ignoreMismatch: true);
            dacUsed += " (version check skipped)";
        }
        using var runtimeOwner = runtime;
        double tOpen = sw.Elapsed.TotalSeconds;

        // --- walk: modules, types, methods ---
        sw.Restart();
        var seen = new HashSet<ulong>();
        var methods = new List<(ClrMethod m, string module)>();
        int modules = 0, types = 0, typeMethods = 0;
        void AddType(ClrType? type, string module)
        {
            if (type == null)
                return;
            types++;
            foreach (ClrMethod m in type.Methods)
            {
                typeMethods++;
                if (m.MethodDesc == 0 || !seen.Add(m.MethodDesc))
                    continue;
                ulong code = m.NativeCode;
                if (code == 0 || code == ulong.MaxValue)
                    continue;
                if (!all && m.CompilationType != MethodCompilationType.Jit)
                    continue;
                // ClrMethod.Type is the type walked, whose slot may hold a
                // base type's method (from another module): the module of
                // the MethodDesc's own type comes from GetMethodByHandle.
                string own = runtime.GetMethodByHandle(m.MethodDesc)?.Type?.Module?.Name ?? m.Type?.Module?.Name ?? module;
                methods.Add((m, own));
            }
        }
        foreach (ClrModule module in runtime.EnumerateModules())
        {
            modules++;
            string name = module.Name ?? "";
            foreach ((ulong mt, int _) in module.EnumerateTypeDefToMethodTableMap())
                AddType(runtime.GetTypeByMethodTable(mt), name);
        }
        int heapTypeCount = 0;
        if (heapTypes)
        {
            var mts = new HashSet<ulong>();
            foreach (ClrObject obj in runtime.Heap.EnumerateObjects())
            {
                ClrType? t = obj.Type;
                if (t != null && mts.Add(t.MethodTable))
                {
                    heapTypeCount++;
                    AddType(t, t.Module?.Name ?? "");
                }
            }
        }
        double tWalk = sw.Elapsed.TotalSeconds;

        // --- IL maps ---
        sw.Restart();
        var maps = new ILToNativeMap[methods.Count][];
        long entries = 0;
        for (int i = 0; i < methods.Count; i++)
        {
            var map = methods[i].m.ILOffsetMap;
            maps[i] = map.IsDefault ? Array.Empty<ILToNativeMap>() : map.ToArray();
            entries += maps[i].Length;
        }
        double tMaps = sw.Elapsed.TotalSeconds;

        // --- write ---
        sw.Restart();
        int jit = 0, ngen = 0;
        if (output != null)
        {
            using var w = new StreamWriter(output == "-" ? Console.OpenStandardOutput() : File.Create(output),
                                           new UTF8Encoding(false), 1 << 16);
            var sb = new StringBuilder();
            for (int i = 0; i < methods.Count; i++)
            {
                ClrMethod m = methods[i].m;
                HotColdRegions hc = m.HotColdInfo;
                if (m.CompilationType == MethodCompilationType.Jit) jit++; else ngen++;
                sb.Clear();
                sb.Append("{\"module\": ").Append(Json(methods[i].module));
                sb.Append(", \"walkedModule\": ").Append(Json(m.Type?.Module?.Name ?? ""));
                sb.Append(", \"token\": \"0x").Append(((uint)m.MetadataToken).ToString("x8", CultureInfo.InvariantCulture)).Append('"');
                sb.Append(", \"methodDesc\": \"0x").Append(m.MethodDesc.ToString("x", CultureInfo.InvariantCulture)).Append('"');
                sb.Append(", \"start\": \"0x").Append(m.NativeCode.ToString("x", CultureInfo.InvariantCulture)).Append('"');
                sb.Append(", \"hotStart\": \"0x").Append(hc.HotStart.ToString("x", CultureInfo.InvariantCulture)).Append('"');
                sb.Append(", \"size\": ").Append((ulong)hc.HotSize + hc.ColdSize);
                sb.Append(", \"hotSize\": ").Append(hc.HotSize);
                sb.Append(", \"coldStart\": \"0x").Append(hc.ColdStart.ToString("x", CultureInfo.InvariantCulture)).Append('"');
                sb.Append(", \"coldSize\": ").Append(hc.ColdSize);
                sb.Append(", \"compilationType\": \"").Append(m.CompilationType).Append('"');
                sb.Append(", \"name\": ").Append(Json((m.Type?.Name ?? "?") + "::" + (m.Name ?? "?")));
                sb.Append(", \"ilOffsetMap\": [");
                ILToNativeMap[] map = maps[i];
                for (int k = 0; k < map.Length; k++)
                {
                    if (k > 0) sb.Append(", ");
                    sb.Append('[').Append(map[k].ILOffset).Append(", ").Append(map[k].StartAddress)
                      .Append(", ").Append(map[k].EndAddress).Append(']');
                }
                sb.Append("]}");
                w.WriteLine(sb.ToString());
            }
        }
        double tWrite = sw.Elapsed.TotalSeconds;

        Console.Error.WriteLine($"clrmd_peer: {core}: CLR {info.Version} ({info.Flavor}), DAC {dacUsed}; {modules} modules, {types} types ({heapTypeCount} from the heap), {typeMethods} type methods, {methods.Count} methods with native code written ({entries} IL map entries)");
        Console.Error.WriteLine(string.Format(CultureInfo.InvariantCulture,
            "clrmd_peer: timings: open + CreateRuntime {0:F3} s, module/method walk {1:F3} s, IL maps {2:F3} s, write {3:F3} s, total {4:F3} s",
            tOpen, tWalk, tMaps, tWrite, total.Elapsed.TotalSeconds));
        return 0;
    }

    static string Json(string s)
    {
        var sb = new StringBuilder(s.Length + 2);
        sb.Append('"');
        foreach (char c in s)
        {
            switch (c)
            {
                case '"': sb.Append("\\\""); break;
                case '\\': sb.Append("\\\\"); break;
                default:
                    if (c < 0x20) sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                    else sb.Append(c);
                    break;
            }
        }
        return sb.Append('"').ToString();
    }
}
