#!/usr/bin/env python3
"""Trunk post-build hook: adds the page's Content-Security-Policy as a meta tag, with a hash for
each inline script as built (Trunk writes its loader inline, with hashed file names, so the
hashes can only be taken after the build). Usage: csp.py STAGED_INDEX_HTML"""
import base64
import hashlib
import re
import sys

path = sys.argv[1]
html = open(path, encoding="utf-8").read()
hashes = [
    "'sha256-%s'" % base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
    for attrs, body in re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", html, re.S)
]
policy = "; ".join([
    "default-src 'self'",
    # The wasm modules are compiled by the page and by the worker.
    "script-src 'self' 'wasm-unsafe-eval' " + " ".join(hashes),
    # The code-generator worker starts from a blob that imports its script from the site.
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
])
meta = '<meta http-equiv="Content-Security-Policy" content="%s">' % policy
html, n = re.subn(r'<meta http-equiv="Content-Security-Policy"[^>]*>', meta, html)
if n == 0:
    html, n = re.subn(r'(<meta charset="utf-8">)', r"\1\n  " + meta.replace("\\", "\\\\"), html, count=1)
if n != 1:
    sys.exit("csp.py: no place for the Content-Security-Policy meta tag")
open(path, "w", encoding="utf-8").write(html)
