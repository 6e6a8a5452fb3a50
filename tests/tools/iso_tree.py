"""iso_tree.py - what the independent ISO 20022 readers of the tests
(dd_counts.py, cxl_counts.py) share: ElementTree with namespaces dropped,
and each currency's minor units."""

EXP = {"JPY": 0, "KRW": 0, "CLP": 0, "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3}


def local(tag):
    return tag.rsplit("}", 1)[-1]


def find(el, *path):
    """The first element at path (local names) under el, or None."""
    for name in path:
        if el is None:
            return None
        el = next((c for c in el if local(c.tag) == name), None)
    return el


def text(el, *path):
    e = find(el, *path)
    return e.text.strip() if e is not None and e.text and e.text.strip() else None
