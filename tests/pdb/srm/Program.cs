// Prints what System.Reflection.Metadata reads of a portable PDB, in the
// text format tests/support/pdb_points.cpp prints with gdmap's reader
// (tests/pdb/srm_agreement.sh compares the two):
//   id      <guid>:0x<stamp>
//   document <row> <name>
//   point   <method token> <il> <document row> <startLine> <startColumn> <endLine> <endColumn> | hidden
//   line    <method token> <il> <document name>:<line>:<column> | none
// The `line` rows are StackTraceSymbols.GetSourceLineInfo's rule
// (dotnet/runtime, System.Diagnostics.StackTrace) at each point's IL
// offset, one byte before it, and one byte past the last point.
//   srm_pdb_points FILE.pdb | --embedded IMAGE.dll
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using System.Text;

static class Program
{
    static int Main(string[] args)
    {
        MetadataReaderProvider provider;
        if (args.Length == 2 && args[0] == "--embedded")
        {
            var pe = new PEReader(File.OpenRead(args[1]));
            DebugDirectoryEntry? embedded = null;
            foreach (var entry in pe.ReadDebugDirectory())
                if (entry.Type == DebugDirectoryEntryType.EmbeddedPortablePdb) { embedded = entry; break; }
            if (embedded == null) { Console.Error.WriteLine("no embedded PDB"); return 2; }
            provider = pe.ReadEmbeddedPortablePdbDebugDirectoryData(embedded.Value);
        }
        else if (args.Length == 1)
        {
            provider = MetadataReaderProvider.FromPortablePdbStream(File.OpenRead(args[0]));
        }
        else
        {
            Console.Error.WriteLine("usage: srm_pdb_points FILE.pdb | --embedded IMAGE.dll");
            return 2;
        }
        var reader = provider.GetMetadataReader();
        var output = new StringBuilder();
        var id = new BlobContentId(reader.DebugMetadataHeader.Id);
        output.Append($"id\t{id.Guid:D}:0x{id.Stamp:x8}\n");
        foreach (DocumentHandle d in reader.Documents)
            output.Append($"document\t{MetadataTokens.GetRowNumber(d)}\t{reader.GetString(reader.GetDocument(d).Name)}\n");
        foreach (MethodDebugInformationHandle h in reader.MethodDebugInformation)
        {
            string token = $"0x{0x06000000 | MetadataTokens.GetRowNumber(h):x8}";
            var points = new List<SequencePoint>(reader.GetMethodDebugInformation(h).GetSequencePoints());
            var offsets = new SortedSet<int>();
            foreach (SequencePoint p in points)
            {
                int doc = MetadataTokens.GetRowNumber(p.Document);
                if (p.IsHidden) output.Append($"point\t{token}\t0x{p.Offset:x}\t{doc}\thidden\n");
                else output.Append($"point\t{token}\t0x{p.Offset:x}\t{doc}\t{p.StartLine}\t{p.StartColumn}\t{p.EndLine}\t{p.EndColumn}\n");
                offsets.Add(p.Offset);
                if (p.Offset > 0) offsets.Add(p.Offset - 1);
            }
            if (points.Count > 0) offsets.Add(points[points.Count - 1].Offset + 1);
            foreach (int il in offsets)
                output.Append($"line\t{token}\t0x{il:x}\t{LineAt(reader, points, il)}\n");
        }
        var stdout = Console.OpenStandardOutput();
        var bytes = new UTF8Encoding(false).GetBytes(output.ToString());
        stdout.Write(bytes, 0, bytes.Length);
        return 0;
    }

    // StackTraceSymbols.GetSourceLineInfo: the last non-hidden point whose
    // offset is at most `il`, stopping at the first point past it.
    static string LineAt(MetadataReader reader, List<SequencePoint> points, int il)
    {
        SequencePoint? best = null;
        foreach (SequencePoint point in points)
        {
            if (point.Offset > il) break;
            if (point.StartLine != SequencePoint.HiddenLine) best = point;
        }
        if (!best.HasValue) return "none";
        string file = reader.GetString(reader.GetDocument(best.Value.Document).Name);
        return $"{file}:{best.Value.StartLine}:{best.Value.StartColumn}";
    }
}
