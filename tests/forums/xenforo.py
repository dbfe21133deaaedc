"""XenForo 2.2 thread pages (``/threads/{slug}.{id}/page-{n}``) for loopback tests."""
# ruff: noqa: E501  (page markup is kept on the lines the real templates use)

from __future__ import annotations

import re
import zlib
from html import escape

SLUG = "game-thread"


def thread_url(base_url: str, *, topic_id: str = "1") -> str:
    return f"{base_url}/threads/{SLUG}.{topic_id}/"


def render_thread(
    posts: list[dict],
    *,
    base_url: str,
    per_page: int = 20,
    topic_id: str = "1",
    title: str = "Game thread",
) -> dict[str, str]:
    """Every page; page 1 at ``/threads/slug.id/``, later ones at ``…/page-N`` (XenForo's own
    links)."""
    base = f"/threads/{SLUG}.{topic_id}"
    chunks = [posts[i : i + per_page] for i in range(0, max(len(posts), 1), per_page)]
    pages = {}
    for index, chunk in enumerate(chunks, start=1):
        path = f"{base}/" if index == 1 else f"{base}/page-{index}"
        pages[path] = _page(
            chunk, base=base, base_url=base_url, page=index, last=len(chunks), title=title
        )
    return pages


def _href(base: str, page: int) -> str:
    return f"{base}/" if page == 1 else f"{base}/page-{page}"


def _nav(base: str, page: int, last: int) -> str:
    if last == 1:
        return ""
    items = "".join(
        f'<li class="pageNav-page {"pageNav-page--current " if n == page else ""}"><a href="{_href(base, n)}">{n}</a></li>'
        for n in range(1, last + 1)
    )
    prev = (
        f'<a href="{_href(base, page - 1)}" class="pageNav-jump pageNav-jump--prev">Prev</a>'
        if page > 1
        else ""
    )
    nxt = (
        f'<a href="{_href(base, page + 1)}" class="pageNav-jump pageNav-jump--next">Next</a>'
        if page < last
        else ""
    )
    return (
        '<div class="block-outer"><div class="block-outer-main"><nav class="pageNavWrapper pageNavWrapper--mixed ">'
        f'<div class="pageNav  ">{prev}<ul class="pageNav-main">{items}</ul>{nxt}</div></nav></div></div>'
    )


def _page(chunk, *, base, base_url, page, last, title) -> str:
    links = ""
    if page > 1:
        links += f'<link rel="prev" href="{_href(base, page - 1)}" />\n'
    if page < last:
        links += f'<link rel="next" href="{_href(base, page + 1)}" />\n'
    body = "\n".join(_post(p, base=base, base_url=base_url) for p in chunk)
    page_title = f"{escape(title)}{f' | Page {page}' if page > 1 else ''} | Example Forums"
    return f"""<!DOCTYPE html>
<html id="XF" lang="en-US" dir="LTR" data-xf="2.2" data-app="public" data-template="thread_view" data-container-key="node-4" data-content-key="thread-1" data-logged-in="false" data-cookie-prefix="xf_" class="has-no-js template-thread_view">
<head>
	<meta charset="utf-8" />
	<title>{page_title}</title>
	<link rel="canonical" href="{base_url}{_href(base, page)}" />
	{links}
</head>
<body data-template="thread_view">
<div class="p-pageWrapper" id="top">
<div class="p-body-header"><div class="p-title "><h1 class="p-title-value">{escape(title)}</h1></div></div>
{_nav(base, page, last)}
<div class="block block--messages" data-xf-init="" data-type="post" data-href="/inline-mod/" data-search-target="*">
	<div class="block-container lbContainer" data-xf-init="lightbox select-to-quote" data-message-selector=".js-post" data-lb-id="thread-1">
		<div class="block-body js-replyNewMessageContainer">
{body}
		</div>
	</div>
</div>
{_nav(base, page, last)}
</div>
</body>
</html>
"""


def _post(post: dict, *, base: str, base_url: str) -> str:
    pid, user, number = post["id"], escape(post["user"]), post["number"]
    stamp = int(post["time"].timestamp())
    iso = post["time"].strftime("%Y-%m-%dT%H:%M:%S+0000")
    shown = post["time"].strftime("%b %-d, %Y")
    if post.get("guest"):
        uid = "0"
        name_html = f'<span class="username " dir="auto" data-user-id="0">{user}</span>'
        avatar = f'<span class="avatar avatar--m avatar--default avatar--default--dynamic" data-user-id="0"><span class="avatar-u0-m" role="img" aria-label="{user}">{user[:1]}</span></span>'
    else:
        uid = post.get("user_id") or str(zlib.crc32(post["user"].encode()) % 100000)
        member = f"/members/{re.sub(r'[^a-z0-9]+', '-', post['user'].lower()).strip('-') or 'member'}.{uid}/"
        name_html = f'<a href="{member}" class="username " dir="auto" data-user-id="{uid}" data-xf-init="member-tooltip"><span itemprop="name">{user}</span></a>'
        avatar = f'<a href="{member}" class="avatar avatar--m avatar--default avatar--default--dynamic" data-user-id="{uid}" data-xf-init="member-tooltip"><span class="avatar-u{uid}-m" role="img" aria-label="{user}">{user[:1]}</span></a>'
    deleted = post.get("deleted")
    notice = (
        '<div class="messageNotice messageNotice--deleted">Deleted by a moderator.</div>\n'
        if deleted
        else ""
    )
    edited = (
        f'<div class="message-lastEdit">Last edited: <time class="u-dt" dir="auto" datetime="{iso}" data-timestamp="{stamp + 300}">{shown}</time></div>\n'
        if post.get("edited")
        else ""
    )
    signature = (
        f'<aside class="message-signature"><div class="bbWrapper">{post["signature"]}</div></aside>\n'
        if post.get("signature")
        else ""
    )
    return f"""<article class="message message--post js-post js-inlineModContainer {"message--deleted " if deleted else ""}" data-author="{user}" data-content="post-{pid}" id="js-post-{pid}" itemscope itemtype="https://schema.org/Comment" itemid="{base_url}/posts/{pid}/">
	<span class="u-anchorTarget" id="post-{pid}"></span>
	<div class="message-inner">
		<div class="message-cell message-cell--user">
			<section class="message-user" itemprop="author" itemscope itemtype="https://schema.org/Person">
				<div class="message-avatar "><div class="message-avatar-wrapper">{avatar}</div></div>
				<div class="message-userDetails">
					<h4 class="message-name">{name_html}</h4>
					<h5 class="userTitle message-userTitle" dir="auto" itemprop="jobTitle">Member</h5>
				</div>
				<span class="message-userArrow"></span>
			</section>
		</div>
		<div class="message-cell message-cell--main">
		<div class="message-main js-quickEditTarget">
			<header class="message-attribution message-attribution--split">
				<ul class="message-attribution-main listInline ">
					<li class="u-concealed">
						<a href="{base}/post-{pid}" rel="nofollow" itemprop="url">
							<time class="u-dt" dir="auto" datetime="{iso}" data-timestamp="{stamp}" data-date="{shown}" data-time="{post["time"].strftime("%-I:%M %p")}" data-short="{post["time"].strftime("%b %y")}" title="{shown} at {post["time"].strftime("%-I:%M %p")}" itemprop="datePublished">{shown}</time>
						</a>
					</li>
				</ul>
				<ul class="message-attribution-opposite message-attribution-opposite--list ">
					<li><a href="{base}/post-{pid}" class="message-attribution-gadget" data-xf-init="share-tooltip" data-href="/posts/{pid}/share" aria-label="Share" rel="nofollow"><i class="fa--xf far fa-share-alt" aria-hidden="true"></i></a></li>
					<li><a href="{base}/post-{pid}" rel="nofollow">#{number:,}</a></li>
				</ul>
			</header>
			<div class="message-content js-messageContent">
{notice}				<div class="message-userContent lbContainer js-lbContainer " data-lb-id="post-{pid}">
					<article class="message-body js-selectToQuote">
						<div itemprop="text">
							<div class="bbWrapper">{post["content"]}</div>
						</div>
						<div class="js-selectToQuoteEnd">&nbsp;</div>
					</article>
				</div>
{edited}{signature}			</div>
			<footer class="message-footer">
				<div class="message-actionBar actionBar"></div>
				<div class="reactionsBar js-reactionsList "></div>
			</footer>
		</div>
		</div>
	</div>
</article>"""
