"""The bibliography: the documents the presets cite, and the expansion of a citation key.

A preset's `source` text names a document by a short key ("emc Table 4", "hp 'Array size'",
"me4 guide Table 3"): short enough to write beside every number, but a customer cannot look
"emc" up. `Bibliography.cite` replaces each key with the document's title and number (a second
mention in the same text with the document's short name), so the report and the GUI's tooltips
say "EMC CLARiiON: The Effect of Priorities on LUN Management Operations, H4153.2, Table 4,
pp. 12-13" (the pages from the [key.pages] table, where the document's contents give them).
The documents come from presets/sources.toml (app/store/sources.py reads it).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping


@dataclass(frozen=True)
class Document:
    key: str
    title: str
    number: str = ""
    publisher: str = ""
    kind: str = ""
    date: str = ""
    short: str = ""
    where: str = ""  # a URL or stored copy
    seed: str = ""  # the calibration seed file, for the five source documents
    aliases: tuple[str, ...] = ()
    # the pages a locator ("Table 4", "'Rebuild priority'") is on: (first, last), from the
    # document's own table of contents; a citation of it then adds "pp. 12-13"
    pages: Mapping[str, tuple[int, int]] = field(default_factory=dict, compare=False)

    def page_text(self, locator: str) -> str:
        """ "p. 12" / "pp. 12-13" for a locator; "Tables 4-5" spans its tables' pages; "" unknown."""
        m = re.fullmatch(r"(Table|Figure)s (\d+)-(\d+)", locator)
        parts = [f"{m.group(1)} {i}" for i in range(int(m.group(2)), int(m.group(3)) + 1)] if m else [locator]
        spans = [self.pages[x] for x in parts if x in self.pages]
        if len(spans) != len(parts) or not spans:
            return ""
        first, last = min(a for a, _ in spans), max(b for _, b in spans)
        return f"p. {first}" if first == last else f"pp. {first}-{last}"

    @property
    def citation(self) -> str:
        """How the first mention in a text names the document: title and number (or date)."""
        if self.number:
            return f"{self.title}, {self.number}"
        return f"{self.title} ({self.date})" if self.date else self.title

    @property
    def reference(self) -> str:
        """The References entry: everything needed to find the document."""
        parts = [self.title]
        parts += [x for x in (self.kind, self.publisher, self.number, self.date) if x]
        text = ", ".join(parts)
        return f"{text}; {self.where}" if self.where else text


# what follows a citation key and may have a page: "Table 4", "Figures 9-10", "'Rebuild priority'"
_LOCATOR = r" (?:(?:Table|Figure)s? \d+(?:-\d+)?(?!\d)|'[^']{2,80}')"


@dataclass
class Bibliography:
    documents: dict[str, Document] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names: dict[str, Document] = {}
        for doc in self.documents.values():
            for name in (doc.key, *doc.aliases):
                names[name] = doc
        self._by_name = names
        if names:
            # longest first: "netapp post" before "netapp"; a key is a word of its own, never
            # part of a figure id ("emc.load.cpu"), a file name ("dell-md32xx") or a longer word
            alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
            self._pattern: re.Pattern | None = re.compile(
                rf"(?<![\w./'-])({alternatives})(?=$|[\s:;,)'])({_LOCATOR})?")
        else:
            self._pattern = None

    def keys_in(self, text: str) -> list[str]:
        """The documents `text` cites, in the order it first cites them."""
        out: list[str] = []
        for m in self._pattern.finditer(text or "") if self._pattern else ():
            key = self._by_name[m.group(1)].key
            if key not in out:
                out.append(key)
        return out

    def cite(self, text: str) -> str:
        """`text` with each citation key replaced by the document's title and number."""
        if not text or self._pattern is None:
            return text
        seen: set[str] = set()

        def expand(m: re.Match) -> str:
            doc = self._by_name[m.group(1)]
            name = (doc.short or doc.citation) if doc.key in seen else doc.citation
            seen.add(doc.key)
            locator = m.group(2)
            if locator:
                page = doc.page_text(locator.strip().strip("'"))
                return f"{name},{locator}, {page}" if page else f"{name},{locator}"
            following = text[m.end():m.end() + 2]
            # "emc Table 4" -> "..., H4153.2, Table 4"; "emc: text", "(emc)" and "tr4652 (pools"
            # keep their own marks
            return f"{name}," if following[:1] == " " and following != " (" else name

        return self._pattern.sub(expand, text)

    def references(self, keys: Iterable[str]) -> list[Document]:
        return [self.documents[k] for k in keys if k in self.documents]


def bibliography_from_tables(tables: Mapping[str, Mapping], where: str = "sources.toml") -> Bibliography:
    """A Bibliography from parsed TOML tables (one per key); ValueError names a table without a title."""
    docs: dict[str, Document] = {}
    for key, t in tables.items():
        if not isinstance(t, Mapping) or not str(t.get("title", "")).strip():
            raise ValueError(f"{where}: [{key}] has no title")
        docs[key] = Document(key, str(t["title"]), *(str(t.get(k, "")) for k in
                                                      ("number", "publisher", "kind", "date", "short", "where", "seed")),
                             aliases=tuple(str(a) for a in t.get("aliases", ())),
                             pages=_pages(t.get("pages", {}), f"{where}: [{key}.pages]"))
    return Bibliography(docs)


def _pages(table: object, where: str) -> dict[str, tuple[int, int]]:
    """A document's [key.pages]: locator = [first, last] (or one page); ValueError names the entry."""
    if not isinstance(table, Mapping):
        raise ValueError(f"{where} must be a table of locator = [first page, last page]")
    out: dict[str, tuple[int, int]] = {}
    for locator, span in table.items():
        span = [span] if isinstance(span, int) else span
        if (not isinstance(span, list) or len(span) not in (1, 2) or
                not all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in span) or span[0] > span[-1]):
            raise ValueError(f"{where}: {locator!r} must be a page or [first, last] pages, not {span!r}")
        out[str(locator)] = (span[0], span[-1])
    return out
