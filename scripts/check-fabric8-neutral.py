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

# Published modules that are not neutral on purpose: the seam, built per line, and the Spring Boot starter, on
# fabric8 8 only (Boot 4), so not built on line 7.
PER_LINE = {"scheduler-fabric8", "scheduler-fabric8-7", "kubesched-spring-boot-starter"}


def published_modules(root: pathlib.Path) -> list[str]:
    """Every top-level module that ships a jar, as .ci/run finds them: not pom-packaged, not deploy-skipped."""
    modules = []
    for pom in sorted(root.glob("*/pom.xml")):
        text = pom.read_text()
        if "<packaging>pom</packaging>" in text or "<maven.deploy.skip>true</maven.deploy.skip>" in text:
            continue
        if pom.parent.name not in PER_LINE:
            modules.append(pom.parent.name)
    return modules

HEADER = re.compile(r"^(Classfile |  Last modified |  SHA-256 checksum |  MD5 checksum |  Compiled from )")
POOL_ENTRY = re.compile(r"^\s+#\d+ = ")
POOL_REF = re.compile(r"#\d+(,\s*#\d+)?")


def disassembled(classes: pathlib.Path, files: list[str]) -> dict[str, str]:
    """What javap prints of each class, normalized, keyed by its path relative to `classes`."""
    out = subprocess.run(["javap", "-c", "-p", "-v", *files], cwd=classes, check=True, capture_output=True,
                         text=True).stdout
    result: dict[str, list[str]] = {}
    current: list[str] | None = None
    current_name = ""
    in_pool = in_lines = False
    for line in out.splitlines():
        if line.startswith("Classfile "):
            path = pathlib.Path(line[len("Classfile "):].strip())
            key = str(path.relative_to(classes.resolve())) if path.is_absolute() else str(path)
            current = result.setdefault(key, [])
            current_name = path.name
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
        line = " ".join(POOL_REF.sub("#", line).split())
        if current_name == "module-info.class":
            # module-info records the version of each module required: line 7's scheduler-fabric8 has
            # "-fabric8.7" in its version, which the JVM records and never checks.
            line = line.replace("-fabric8.7", "")
        current.append(line)
    return {key: "\n".join(lines) for key, lines in result.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent, type=pathlib.Path)
    root = parser.parse_args().root
    problems = []
    compared = 0
    modules = published_modules(root)
    for module in modules:
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
    print(f"{compared} classes of {len(modules)} modules are the same on fabric8 7 and 8: {', '.join(modules)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
