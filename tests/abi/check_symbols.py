#!/usr/bin/env python3
"""The library's exported symbols against its version script and its public headers.

check_symbols.py NM LIBRARY MAP VERSION HEADER...

Fails (exit 1, one line per problem) when
  - the library exports a name the version script does not list (a leak: it would become ABI),
  - the version script lists a name the library does not export (a removed or misspelt function),
  - an exported name carries another version than the node that lists it,
  - a public header declares an NTIDX_API function the script does not list, or the script lists
    a name no public header declares,
  - the nodes are not NTIDX_<major>.<minor>, each newer than and inheriting the one before, none
    newer than the project's VERSION (meson.build).
"""
import re
import subprocess
import sys

NODE_RE = re.compile(r"(NTIDX_(\d+)\.(\d+))\s*\{(.*?)\}\s*(NTIDX_\d+\.\d+)?\s*;", re.S)


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", re.sub(r"//[^\n]*", " ", text), flags=re.S)


def parse_map(path):
    """[(node, (major, minor), parent or None, [names])] in file order."""
    text = strip_comments(open(path, encoding="utf-8").read())
    nodes = []
    rest = text
    for m in NODE_RE.finditer(text):
        body = m.group(4)
        names = []
        section = None
        for item in re.split(r"[;\s]+", body):
            if not item:
                continue
            if item in ("global:", "local:"):
                section = item
                continue
            if section == "global:":
                names.append(item)
            elif section == "local:" and item != "*":
                raise SystemExit(f"{path}: node {m.group(1)}: only `local: *;` is expected, not {item}")
        nodes.append((m.group(1), (int(m.group(2)), int(m.group(3))), m.group(5), names))
        rest = rest.replace(m.group(0), "", 1)
    if rest.strip():
        raise SystemExit(f"{path}: text outside the version nodes: {rest.strip()[:80]!r}")
    return nodes


def exported(nm, lib):
    """{name: version} of the defined dynamic symbols (the version nodes' own `A` symbols left out)."""
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2]
        base, _, version = name.partition("@@") if "@@" in name else name.partition("@")
        if kind == "A" and base.startswith("NTIDX_"):  # a version node's own symbol
            continue
        syms[base] = version
    return syms


def declared(headers):
    names = set()
    for h in headers:
        text = strip_comments(open(h, encoding="utf-8").read())
        text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)  # the NTIDX_API macro's own definition
        for m in re.finditer(r"\bNTIDX_API\b([^;{}]*?)\b(\w+)\s*\(", text):
            names.add(m.group(2))
    return names


def main():
    nm, lib, map_path, version, headers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    problems = []
    nodes = parse_map(map_path)
    if not nodes:
        problems.append(f"{map_path}: no version node")
    project = tuple(int(x) for x in version.split(".")[:2])
    listed = {}
    for i, (node, ver, parent, names) in enumerate(nodes):
        if i > 0:
            prev_node, prev_ver = nodes[i - 1][0], nodes[i - 1][1]
            if ver <= prev_ver:
                problems.append(f"{map_path}: node {node} is not newer than {prev_node} before it")
            if parent != prev_node:
                problems.append(f"{map_path}: node {node} must inherit {prev_node} (`}} {prev_node};`)")
        if ver > project:
            problems.append(f"{map_path}: node {node} is newer than the project's version {version}")
        for n in names:
            if n in listed:
                problems.append(f"{map_path}: {n} is listed twice ({listed[n]} and {node})")
            listed[n] = node
    syms = exported(nm, lib)
    for n in sorted(set(syms) - set(listed)):
        problems.append(f"{lib}: exports {n}, which {map_path} does not list")
    for n in sorted(set(listed) - set(syms)):
        problems.append(f"{map_path}: lists {n} ({listed[n]}), which {lib} does not export")
    for n in sorted(set(syms) & set(listed)):
        if syms[n] != listed[n]:
            problems.append(f"{lib}: {n} has version {syms[n] or '(none)'}, {map_path} lists it in {listed[n]}")
    decl = declared(headers)
    for n in sorted(decl - set(listed)):
        problems.append(f"a public header declares NTIDX_API {n}, which {map_path} does not list")
    for n in sorted(set(listed) - decl):
        problems.append(f"{map_path}: lists {n}, which no public header declares NTIDX_API")
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{len(syms)} symbols exported, as {map_path} lists them in {len(nodes)} node(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
