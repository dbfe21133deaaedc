"""ProBoards thread pages (``/thread/{id}/{slug}?page=N``) for loopback tests."""
# ruff: noqa: E501  (page markup is kept on the lines the real templates use)

from __future__ import annotations

import zlib
from html import escape

SLUG = "game-thread"


def thread_url(base_url: str, *, topic_id: str = "1") -> str:
    return f"{base_url}/thread/{topic_id}/{SLUG}"


def render_thread(
    posts: list[dict],
    *,
    base_url: str,
    per_page: int = 20,
    topic_id: str = "1",
    title: str = "Game thread",
) -> dict[str, str]:
    base = f"/thread/{topic_id}/{SLUG}"
    chunks = [posts[i : i + per_page] for i in range(0, max(len(posts), 1), per_page)]
    pages = {}
    for page, chunk in enumerate(chunks, start=1):
        key = base + (f"?page={page}" if page > 1 else "")
        rows = "\n".join(_post(p, first=(i == 0), parity=i % 2) for i, p in enumerate(chunk))
        bar = _control_bar(base, page, len(chunks))
        pages[key] = f"""<!DOCTYPE html>
<html lang="en" xmlns:fb="http://ogp.me/ns/fb#">
<head>
<meta charset="utf-8">
<title>{escape(title)} | Example Board</title>
<link rel="canonical" href="{base_url}{key}">
</head>
<body class="thread-page">
<div id="wrapper">
<div id="content">
{bar}
<div class="container posts">
<div class="title-bar"><h1>{escape(title)}</h1></div>
<div class="content">
<table class="list" role="grid">
<tbody>
{rows}
</tbody>
</table>
</div>
</div>
{bar}
</div>
<div id="powered-by">Powered by <a href="https://www.proboards.com">ProBoards</a></div>
</div>
</body>
</html>
"""
    return pages


def _control_bar(base: str, page: int, last: int) -> str:
    items = []
    for n in range(1, last + 1):
        if n == page:
            items.append(
                f'<li class="ui-pagination-page ui-pagination-slot state-selected"><span>{n}</span></li>'
            )
        else:
            href = base + (f"?page={n}" if n > 1 else "")
            items.append(
                f'<li class="ui-pagination-page ui-pagination-slot"><a href="{href}">{n}</a></li>'
            )
    if page < last:
        items.append(
            f'<li class="next"><a href="{base}?page={page + 1}" rel="next"><span>Next Page</span></a></li>'
        )
    else:
        items.append(
            '<li class="next state-disabled"><a rel="next"><span>Next Page</span></a></li>'
        )
    return f'<div class="control-bar"><ul class="ui-pagination">{"".join(items)}</ul></div>'


def _post(post: dict, *, first: bool, parity: int) -> str:
    pid, user = post["id"], escape(post["user"])
    ms = int(post["time"].timestamp() * 1000)
    shown = post["time"].strftime("%b %-d, %Y %H:%M:%S GMT")
    if post.get("guest"):
        who = f'<span class="user-guest">{user}</span>'
    else:
        uid = post.get("user_id") or str(zlib.crc32(post["user"].encode()) % 100000)
        who = f'<a href="/user/{uid}" itemprop="url" class="user-link user-{uid} member g1" title="@{user.lower()}"><span itemprop="name">{user}</span></a>'
    edited = (
        f'<div class="edited_by">Last Edit: <abbr class="o-timestamp time" data-timestamp="{ms + 60000}" title="{shown}">{shown}</abbr> by {user}</div>'
        if post.get("edited")
        else ""
    )
    signature = (
        f'<div class="foot"><div class="signature">{post["signature"]}</div></div>'
        if post.get("signature")
        else ""
    )
    return f"""<tr id="post-{pid}" class="item post {"first " if first else ""}{"even" if parity == 0 else "odd"}">
<td class="left-panel">
<div class="mini-profile" itemprop="author" itemscope itemtype="http://schema.org/Person">
{who}
<div class="info">Member</div>
</div>
</td>
<td class="content">
<article>
<div class="content-head">
<div class="info"><span class="date"><abbr class="o-timestamp time" data-timestamp="{ms}" title="{shown}">{shown}</abbr></span></div>
</div>
<div class="message">{post["content"]}</div>
{edited}
</article>
{signature}
</td>
</tr>"""
