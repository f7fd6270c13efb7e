#!/usr/bin/env python3
"""Fills the English plural forms in rookery_en.ts after `update_translations`.

English needs a translation file only for messages with %n ("%n logical core(s)",
"%n micro-batch(es)"): Qt then picks "1 logical core" or "8 logical cores". Every other English message stays untranslated
and shows its source text.
"""
import pathlib
import re
import sys

path = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).with_name("rookery_en.ts"))
text = path.read_text(encoding="utf-8")
pattern = re.compile(
    r'(<message numerus="yes">\s*<source>(?P<source>.*?)</source>\s*)<translation[^>]*>.*?</translation>', re.S)


def fill(match):
    source = match.group("source")
    one = source.replace("(es)", "").replace("(s)", "")
    many = source.replace("(es)", "es").replace("(s)", "s")
    return (f'{match.group(1)}<translation>\n            <numerusform>{one}</numerusform>\n'
            f'            <numerusform>{many}</numerusform>\n        </translation>')


text, count = pattern.subn(fill, text)
path.write_text(text, encoding="utf-8")
print(f"{path.name}: {count} plural message(s) filled")
