#!/usr/bin/env python3
"""Writes the everyday words Magnetic Poetry's helpers may suggest: the lower-case, letters-only entries of
Webster's Second International (web2, public domain) as the pinned english-words sdist ships it (a pickled set).
A word written with a capital there is a name (Paris, Xanax); a word not there at all is newer or rarer than a
child's vocabulary (brands, most slang). Usage: make-everyday-words.py SDIST VERSION OUT."""
import io
import pickle
import sys
import tarfile


class StringsOnly(pickle.Unpickler):
    """A set of strings needs no class: anything else in the file is refused rather than run."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"unexpected {module}.{name} in the word list")


def main(sdist: str, version: str, out: str) -> None:
    with tarfile.open(sdist) as archive:
        data = archive.extractfile(f"english-words-{version}/english_words/data/web2.pickle").read()
    words = StringsOnly(io.BytesIO(data)).load()
    everyday = sorted(w for w in words if isinstance(w, str) and w.isalpha() and w.isascii() and w == w.lower())
    with open(out, "w", encoding="utf-8") as file:
        file.write("".join(w + "\n" for w in everyday))
    print(f"{out}: {len(everyday)} everyday words")


if __name__ == "__main__":
    main(*sys.argv[1:4])
