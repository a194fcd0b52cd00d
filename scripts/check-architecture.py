#!/usr/bin/env python3
"""Checks that docs/ARCHITECTURE.md's module table says what Package.swift says (part of `make lint`).

    scripts/check-architecture.py

Reads the package's targets and their dependencies from `swift package dump-package` (the manifest only,
nothing is built, and .build is left alone; $SWIFT names the swift binary) and the table under "## Modules". The table has one row per
module: its name in backticks first, and under "may import" the targets of this package it depends on, each
in backticks, then the outside products it uses, without backticks. It fails (exit 1, one line per
difference) when
  - a target (regular, executable or system library) has no row, or a row names a module that is no target;
  - a row's backticked names are not exactly the targets of this package Package.swift gives the module;
  - a module depends on a module whose row is not below its own (dependencies point down the table);
  - an outside product Package.swift gives the module is not named in its row;
  - a Swift file imports a target of this package that Package.swift does not give its own target: the
    compiler lets a module import any module built before it, so such an import compiles by luck of order.
Test targets, and targets whose files live under Tests/ (TestSupport), are described in prose, not in the
table; their imports are checked all the same. Python's standard library only.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = "docs/ARCHITECTURE.md"
TABLE_HEADER = ["module", "job", "may import"]
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)"
)


class Target:
    def __init__(self, entry: dict, local_names: set[str]):
        self.name: str = entry["name"]
        self.type: str = entry["type"]
        default_folder = "Tests" if self.type == "test" else "Sources"
        self.path: str = entry.get("path") or f"{default_folder}/{self.name}"
        self.targets: list[str] = []  # dependencies that are targets of this package
        self.products: list[str] = []  # dependencies that are other packages' products
        for dependency in entry.get("dependencies", []):
            (kind, value), = dependency.items()
            name = value[0]
            if kind == "target" or (kind == "byName" and name in local_names):
                self.targets.append(name)
            else:
                self.products.append(name)

    @property
    def in_table(self) -> bool:
        return self.type != "test" and not self.path.startswith("Tests/")


def package_targets() -> dict[str, Target]:
    swift = os.environ.get("SWIFT", "swift")
    try:
        # A scratch folder of its own: .build's lock would make the check wait for a build running meanwhile.
        with tempfile.TemporaryDirectory(prefix="trove-check-architecture.") as scratch:
            result = subprocess.run(
                [swift, "package", "--scratch-path", scratch, "dump-package"], cwd=ROOT, capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit(f"check-architecture: {swift} is not installed, so Package.swift cannot be read")
    if result.returncode != 0:
        sys.exit(f"check-architecture: `{swift} package dump-package` failed:\n{result.stderr.strip()}")
    entries = json.loads(result.stdout)["targets"]
    names = {entry["name"] for entry in entries}
    return {entry["name"]: Target(entry, names) for entry in entries}


def cells(line: str) -> list[str]:
    """A table row's cells; `\\|` is a pipe inside a cell, as GitHub's tables read it."""
    parts = re.split(r"(?<!\\)\|", line.strip())
    return [part.strip() for part in parts[1:-1]]


def module_table(text: str) -> tuple[list[tuple[int, list[str]]], list[str]]:
    """The rows (line number, cells) of the first table under "## Modules", and any problem with its form."""
    lines = text.splitlines()
    try:
        start = lines.index("## Modules")
    except ValueError:
        return [], [f'{DOC}: no "## Modules" section']
    header = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("|")), None)
    if header is None or any(lines[i].startswith("## ") for i in range(start + 1, header)):
        return [], [f'{DOC}: no table under "## Modules"']
    if [cell.lower() for cell in cells(lines[header])] != TABLE_HEADER:
        return [], [f"{DOC}:{header + 1}: the module table's columns must be: {' | '.join(TABLE_HEADER)}"]
    rows, problems = [], []
    for i in range(header + 2, len(lines)):
        if not lines[i].startswith("|"):
            break
        row = cells(lines[i])
        if len(row) != len(TABLE_HEADER):
            problems.append(f"{DOC}:{i + 1}: {len(row)} cells, not {len(TABLE_HEADER)} (write a pipe in a cell as \\|)")
        else:
            rows.append((i + 1, row))
    return rows, problems


def check_table(targets: dict[str, Target], text: str) -> list[str]:
    rows, problems = module_table(text)
    seen: dict[str, int] = {}
    for number, (module_cell, _, imports_cell) in rows:
        match = re.match(r"`([^`]+)`", module_cell)
        if not match:
            problems.append(f"{DOC}:{number}: a row starts with its module's name in backticks")
            continue
        module = match.group(1)
        if module in seen:
            problems.append(f"{DOC}:{number}: `{module}` has a row already (line {seen[module]})")
            continue
        seen[module] = number
        target = targets.get(module)
        if target is None:
            problems.append(f"{DOC}:{number}: `{module}` is in the module table but is not a target of Package.swift")
            continue
        if not target.in_table:
            problems.append(f"{DOC}:{number}: `{module}` is a test target ({target.path}): describe it under the table, not in it")
            continue
        named = re.findall(r"`([^`]+)`", imports_cell)
        prose = re.sub(r"`[^`]*`", " ", imports_cell)
        for dependency in sorted(set(target.targets) - set(named)):
            problems.append(f"{DOC}:{number}: `{module}` depends on `{dependency}` in Package.swift; its row does not name it")
        for dependency in sorted(set(named) - set(target.targets)):
            if dependency in targets:
                problems.append(f"{DOC}:{number}: `{module}`'s row names `{dependency}`, which Package.swift does not give it")
            else:
                problems.append(
                    f"{DOC}:{number}: `{module}`'s row names `{dependency}`, which is no target of this package "
                    "(outside products go without backticks)")
        for product in target.products:
            if not re.search(rf"(?<![\w-]){re.escape(product)}(?![\w-])", prose):
                problems.append(f"{DOC}:{number}: `{module}` uses the product {product} in Package.swift; its row does not name it")
    rows_of_targets = {module: number for module, number in seen.items() if module in targets and targets[module].in_table}
    for module, number in rows_of_targets.items():
        for dependency in targets[module].targets:
            if dependency in seen and seen[dependency] < number:
                problems.append(f"{DOC}:{number}: `{module}` depends on `{dependency}`, whose row is above its own (line {seen[dependency]})")
    for target in targets.values():
        if target.in_table and target.name not in seen:
            problems.append(f"{DOC}: target `{target.name}` ({target.type}, {target.path}) has no row in the module table")
    return problems


def check_imports(targets: dict[str, Target]) -> list[str]:
    problems = []
    for target in targets.values():
        allowed = set(target.targets) | {target.name}
        for file in sorted((ROOT / target.path).rglob("*.swift")):
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
                match = IMPORT.match(line)
                if match and match.group(1) in targets and match.group(1) not in allowed:
                    problems.append(
                        f"{file.relative_to(ROOT)}:{number}: `{target.name}` imports `{match.group(1)}`, "
                        "which Package.swift does not list among its dependencies")
    return problems


def main() -> int:
    targets = package_targets()
    problems = check_table(targets, (ROOT / DOC).read_text(encoding="utf-8")) + check_imports(targets)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-architecture: {len(problems)} difference(s) between {DOC}, Package.swift and the imports", file=sys.stderr)
        return 1
    print(f"check-architecture: {DOC}'s module table and every import agree with Package.swift "
          f"({sum(t.in_table for t in targets.values())} modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
