#!/usr/bin/env python3
"""Compare `gdmap il extract` output with the R2RDump peer's JSON lines.

    r2r_peer_compare.py PEER.jsonl GDMAP_DIR [--show N]

GDMAP_DIR holds one `IMAGE.json` per image (`gdmap il extract IMAGE -o
GDMAP_DIR/IMAGE.json`). A body is (code size, bounds); bounds are
(native, il, source bits) with the specials as 0xFFFFFFFD..F. Bodies are
compared per (image, token) as multisets, so the several instantiations of
a generic method match whatever text each side gives them; the
instantiation texts are compared too, separately, and only reported.
Exit 0 when every body agrees, 1 otherwise.
"""
import argparse
import collections
import json
import os
import sys

SPECIAL = {"prolog": 0xFFFFFFFE, "epilog": 0xFFFFFFFD, "no_mapping": 0xFFFFFFFF}
FLAGS = {"sequence_point": 0x01, "stack_empty": 0x02, "call_site": 0x04,
         "native_end_offset_unknown": 0x08, "call_instruction": 0x10, "async": 0x20}


def number(value):
    if isinstance(value, int):
        return value
    if value in SPECIAL:
        return SPECIAL[value]
    return int(value, 16)


def gdmap_bodies(path, image):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    for m in doc["methods"]:
        bounds = tuple(
            (number(b["native"]), number(b["il"]),
             sum(FLAGS[s] if s in FLAGS else int(s, 16) for s in b.get("source", [])))
            for b in m.get("bounds", []))
        yield (image, number(m["token"])), (m.get("codeSize"), bounds), inst_text(m.get("instantiation"))


def peer_bodies(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = json.loads(line)
            bounds = tuple(tuple(b) for b in m["bounds"])
            yield (m["image"], int(m["token"], 16)), (m.get("codeSize"), bounds), inst_text(m.get("instantiation"))


def inst_text(inst):
    if not inst:
        return ""
    text = "<%s>" % ", ".join(inst.get("type", [])) if inst.get("type") else ""
    if inst.get("method"):
        text += "::<%s>" % ", ".join(inst["method"])
    if inst.get("unboxingStub"):
        text += " unboxing"
    return text.replace(" ", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("peer")
    ap.add_argument("gdmap_dir")
    ap.add_argument("--show", type=int, default=5)
    args = ap.parse_args()

    peer = collections.defaultdict(list)
    peer_inst = collections.defaultdict(list)
    for key, body, inst in peer_bodies(args.peer):
        peer[key].append(body)
        peer_inst[key].append(inst)
    images = sorted({k[0] for k in peer})
    gd = collections.defaultdict(list)
    gd_inst = collections.defaultdict(list)
    missing_images = []
    for image in images:
        path = os.path.join(args.gdmap_dir, image + ".json")
        if not os.path.exists(path):
            missing_images.append(image)
            continue
        for key, body, inst in gdmap_bodies(path, image):
            gd[key].append(body)
            gd_inst[key].append(inst)

    # The peer gives no code size where the runtime functions carry no end
    # (every machine but x64): there only the bounds are compared.
    sizeless = {k[0] for k, bodies in peer.items() if any(b[0] is None for b in bodies)}
    for key in list(gd):
        if key[0] in sizeless:
            gd[key] = [(None, b[1]) for b in gd[key]]

    counts = collections.Counter()
    shown = collections.Counter()
    compared_images = [i for i in images if i not in missing_images]
    for key in sorted(set(peer) | set(gd)):
        if key[0] in missing_images:
            continue
        a = collections.Counter(peer.get(key, []))
        b = collections.Counter(gd.get(key, []))
        counts["peer bodies"] += sum(a.values())
        counts["gdmap bodies"] += sum(b.values())
        agree = a & b
        counts["agree"] += sum(agree.values())
        for side, only in (("peer only", a - b), ("gdmap only", b - a)):
            for body, n in only.items():
                # Split by cause: same bounds but another code size, or other bounds.
                other = b if side == "peer only" else a
                same_bounds = any(o[1] == body[1] for o in other)
                # R2RDump's packed (R2R 16+) decoder takes every whole entry the
                # last byte still holds, past the blob's count: the peer's
                # bounds are then gdmap's and more.
                over_read = side == "peer only" and any(
                    o[0] == body[0] and len(body[1]) > len(o[1]) and body[1][:len(o[1])] == o[1] for o in other)
                over_read = over_read or (side == "gdmap only" and any(
                    o[0] == body[0] and len(o[1]) > len(body[1]) and o[1][:len(body[1])] == body[1] for o in other))
                kind = side + (": code size differs" if same_bounds else
                               ": the peer reads past the count" if over_read else
                               ": bounds differ" if other else ": no such token")
                counts[kind] += n
                if shown[kind] < args.show:
                    shown[kind] += 1
                    print(f"{kind}: {key[0]} 0x{key[1]:08x} codeSize={body[0]} bounds={list(body[1])[:6]}")
        if sorted(peer_inst.get(key, [])) != sorted(gd_inst.get(key, [])) and key in peer and key in gd:
            counts["tokens whose instantiation texts differ"] += 1
            if shown["inst"] < args.show:
                shown["inst"] += 1
                print(f"instantiation text: {key[0]} 0x{key[1]:08x} peer={sorted(peer_inst[key])[:3]} gdmap={sorted(gd_inst[key])[:3]}")
    if sizeless:
        print(f"bounds only (the peer gives no code size): {', '.join(sorted(sizeless))}")
    print(f"images compared: {len(compared_images)}" + (f" (no gdmap output for {len(missing_images)}: {', '.join(missing_images[:5])})" if missing_images else ""))
    for k in sorted(counts):
        print(f"{k}: {counts[k]}")
    return 0 if counts["agree"] == counts["peer bodies"] == counts["gdmap bodies"] else 1


if __name__ == "__main__":
    sys.exit(main())
