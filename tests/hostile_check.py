# hostile_check.py — used by tests/cli/hostile.sh: is FILE clean and valid for its medium?
#   python3 tests/hostile_check.py KIND FILE [MAXBYTES]
# KIND: text (no byte below 0x20 but LF and tab, no DEL, no C1 control, valid UTF-8), cells
# (text, and no tab either: a tab would shift columns), csv (text with CRLF line ends, parsed
# with python's csv, every row as wide as the header), json (json.load), xml (well-formed,
# xml.etree), html (text, and the tags balanced enough for html.parser). Exit 0 when clean,
# else 1 with one line saying what is wrong. MAXBYTES: fail when the file is larger.
import csv
import io
import json
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

kind, path = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
if len(sys.argv) > 3 and len(data) > int(sys.argv[3]):
    sys.exit(f'{path}: {len(data)} bytes, more than {sys.argv[3]}')


def bad(why):
    sys.exit(f'{path}: {why}')


try:
    text = data.decode('utf-8')
except UnicodeDecodeError as e:
    bad(f'not UTF-8 at byte {e.start}')
allowed = {'\n', '\t'}
if kind == 'cells':
    allowed = {'\n'}
if kind == 'csv':
    text_nocrlf = text.replace('\r\n', '\n')
else:
    text_nocrlf = text
for i, ch in enumerate(text_nocrlf):
    o = ord(ch)
    if (o < 0x20 and ch not in allowed) or o == 0x7f or 0x80 <= o <= 0x9f or \
            0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069:
        bad(f'raw control character U+{o:04X} at character {i}')
if kind == 'json':
    try:
        json.loads(text)
    except ValueError as e:
        bad(f'not JSON: {e}')
elif kind == 'csv':
    rows = list(csv.reader(io.StringIO(text, newline='')))
    if not rows:
        bad('no CSV rows')
    width = len(rows[0])
    for k, r in enumerate(rows):
        if len(r) != width:
            bad(f'CSV row {k + 1} has {len(r)} fields, the header {width}')
elif kind == 'xml':
    try:
        ET.fromstring(data)
    except ET.ParseError as e:
        bad(f'not well-formed XML: {e}')
elif kind == 'html':
    class P(HTMLParser):
        pass
    P().feed(text)
    if text.count('<script') or text.count('<SCRIPT'):
        bad('a <script> element')
