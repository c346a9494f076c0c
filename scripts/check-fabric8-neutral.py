#!/usr/bin/env python3
"""Checks that every published module but the fabric8 seam compiles to the same class files on both fabric8 lines.

Each such module ships one jar for fabric8 7 and 8 (docs/architecture.md#modules). Compiling on both lines is not enough:
source that compiles against both may still link differently (a constructor taking Jackson 3's ObjectMapper on one
line and Jackson 2's on the other). So this compares, per class, what `javap -c -p -v` prints of
MODULE/target/classes (line 8, `./mvnw verify`) and MODULE/target/fabric8-7/classes (line 7,
`./mvnw -Dfabric8.line=7 verify`), with what does not change behaviour left out: constant pool indices and
layout, line numbers, the file's checksum and time, the "-fabric8.7" of scheduler-fabric8's version that
module-info records. Fails naming each class that differs or exists on one line.

Usage: scripts/check-fabric8-neutral.py [--root DIR]   (after both builds)
"""
import argparse
import pathlib
import re
import subprocess
import sys

# Every published module but the seam (built per line on purpose) and the Spring Boot starter (Boot 4 is on
# fabric8 8 only, so it is not built on line 7).
MODULES = [
    "scheduler-api", "scheduler-adapter", "scheduler-policy", "scheduler-testkit", "scheduler-engine",
    "scheduler-binder", "scheduler-http", "scheduler-k8s", "scheduler-informer", "scheduler-facade",
    "scheduler-micrometer", "scheduler-crd",
]

HEADER = re.compile(r"^(Classfile |  Last modified |  SHA-256 checksum |  MD5 checksum |  Compiled from )")
POOL_ENTRY = re.compile(r"^\s+#\d+ = ")
POOL_REF = re.compile(r"#\d+(,\s*#\d+)?")


def disassembled(classes: pathlib.Path, files: list[str]) -> dict[str, str]:
    """What javap prints of each class, normalized, keyed by its path relative to `classes`."""
    out = subprocess.run(["javap", "-c", "-p", "-v", *files], cwd=classes, check=True, capture_output=True,
                         text=True).stdout
    result: dict[str, list[str]] = {}
    current: list[str] | None = None
    in_pool = in_lines = False
    for line in out.splitlines():
        if line.startswith("Classfile "):
            path = pathlib.Path(line[len("Classfile "):].strip())
            key = str(path.relative_to(classes.resolve())) if path.is_absolute() else str(path)
            current = result.setdefault(key, [])
            in_pool = in_lines = False
            continue
        assert current is not None, line
        if HEADER.match(line):
            continue
        if line.startswith("Constant pool:"):
            in_pool = True
            continue
        if in_pool:
            if POOL_ENTRY.match(line):
                continue
            in_pool = False
        if line.strip() == "LineNumberTable:":
            in_lines = True
            continue
        if in_lines:
            if re.match(r"^\s+line \d+: \d+$", line):
                continue
            in_lines = False
        # module-info records the version of each module required: line 7's scheduler-fabric8 has "-fabric8.7"
        # in its version, which is recorded, not checked, by the JVM.
        current.append(" ".join(POOL_REF.sub("#", line).replace("-fabric8.7", "").split()))
    return {key: "\n".join(lines) for key, lines in result.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent, type=pathlib.Path)
    root = parser.parse_args().root
    problems = []
    compared = 0
    for module in MODULES:
        eight = root / module / "target" / "classes"
        seven = root / module / "target" / "fabric8-7" / "classes"
        for line, folder in (("8", eight), ("7", seven)):
            if not folder.is_dir():
                problems.append(f"{module}: no classes of line {line} in {folder.relative_to(root)}: build it first")
        if not eight.is_dir() or not seven.is_dir():
            continue
        names8 = {str(p.relative_to(eight)) for p in eight.rglob("*.class")}
        names7 = {str(p.relative_to(seven)) for p in seven.rglob("*.class")}
        for name in sorted(names8 ^ names7):
            problems.append(f"{module}: {name} exists on line {'8' if name in names8 else '7'} only")
        both = sorted(names8 & names7)
        if not both:
            continue
        a = disassembled(eight, both)
        b = disassembled(seven, both)
        for name in both:
            compared += 1
            if a.get(name) != b.get(name):
                diff = [f"    8: {x}\n    7: {y}" for x, y in zip(a.get(name, "").splitlines(), b.get(name, "").splitlines())
                        if x != y][:3]
                problems.append(f"{module}: {name} differs between the lines, first differences:\n" + "\n".join(diff))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s): each module outside scheduler-fabric8 must be the same on both fabric8 lines;"
              " move what differs behind io.kubesched.fabric8.Fabric8Compat", file=sys.stderr)
        return 1
    print(f"{compared} classes of {len(MODULES)} modules are the same on fabric8 7 and 8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
