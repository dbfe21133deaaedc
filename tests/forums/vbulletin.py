"""vBulletin 4.2 thread pages (``showthread.php?t=…&page=…``, postbit_legacy) for loopback tests.

Dates are printed as text in the forum's zone (``tz``), with "Today"/"Yesterday" relative to ``now``
when given, exactly as vBulletin does for a guest.
"""
# ruff: noqa: E501  (page markup is kept on the lines the real templates use)

from __future__ import annotations

import zlib
from datetime import UTC, datetime, timedelta, tzinfo
from html import escape


def thread_url(base_url: str, *, topic_id: str = "1") -> str:
    return f"{base_url}/showthread.php?t={topic_id}"


def render_thread(
    posts: list[dict],
    *,
    base_url: str,
    per_page: int = 10,
    topic_id: str = "1",
    title: str = "Game thread",
    tz: tzinfo = UTC,
    now: datetime | None = None,
) -> dict[str, str]:
    chunks = [posts[i : i + per_page] for i in range(0, max(len(posts), 1), per_page)]
    pages = {}
    for page, chunk in enumerate(chunks, start=1):
        key = f"/showthread.php?t={topic_id}" + (f"&page={page}" if page > 1 else "")
        first = (page - 1) * per_page + 1
        stats = f"Results {first} to {first + len(chunk) - 1} of {len(posts)}"
        body = "\n".join(_post(p, topic_id=topic_id, title=title, tz=tz, now=now) for p in chunk)
        nav = _nav(topic_id, page, len(chunks), per_page, len(posts))
        pages[
            key
        ] = f"""<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" dir="ltr" lang="en">
<head>
	<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
	<meta name="generator" content="vBulletin 4.2.2" />
	<title> {escape(title)}{f" - Page {page}" if page > 1 else ""}</title>
	<link rel="canonical" href="showthread.php?t={topic_id}{f"&amp;page={page}" if page > 1 else ""}" />
</head>
<body>
<div class="above_body"></div>
<div class="body_wrapper">
	<div id="pagetitle"><h1>Thread: <span class="threadtitle"><a href="showthread.php?t={topic_id}" title="Reload this Page">{escape(title)}</a></span></h1></div>
	<div id="above_postlist" class="above_postlist">
		<div id="pagination_top" class="pagination_top">
		{nav}
			<div id="postpagestats_above" class="postpagestats">{stats}</div>
		</div>
	</div>
	<div id="postlist" class="postlist restrain">
		<ol id="posts" class="posts" start="1">
{body}
		</ol>
	</div>
	<div id="below_postlist" class="noinlinemod below_postlist">
		<div id="pagination_bottom" class="pagination_bottom">{nav}</div>
	</div>
</div>
</body>
</html>
"""
    return pages


def _nav(topic_id: str, page: int, last: int, per_page: int, total: int) -> str:
    if last == 1:
        return ""

    def href(n: int) -> str:
        return f"showthread.php?t={topic_id}" + (f"&amp;page={n}" if n > 1 else "")

    def results(n: int) -> str:
        first = (n - 1) * per_page + 1
        return f"Results {first} to {min(first + per_page - 1, total)} of {total}"

    spans = [f'<span><a href="javascript://" class="popupctrl">Page {page} of {last}</a></span>']
    if page > 1:
        spans.append(
            f'<span class="prev_next"><a rel="prev" href="{href(page - 1)}" title="Prev Page - {results(page - 1)}"><img src="images/pagination/previous-right.png" alt="Previous" /></a></span>'
        )
    for n in range(1, last + 1):
        if n == page:
            spans.append(
                f'<span class="selected"><a href="javascript://" title="{results(n)}">{n}</a></span>'
            )
        else:
            spans.append(
                f'<span><a href="{href(n)}" title="Show {results(n).lower()}">{n}</a></span>'
            )
    if page < last:
        spans.append(
            f'<span class="prev_next"><a rel="next" href="{href(page + 1)}" title="Next Page - {results(page + 1)}"><img src="images/pagination/next-right.png" alt="Next" /></a></span>'
        )
    return (
        f'<form action="showthread.php?t={topic_id}" method="get" class="pagination popupmenu nohovermenu">'
        f'<input type="hidden" name="t" value="{topic_id}" />' + "\n\t".join(spans) + "</form>"
    )


def _shown_date(when: datetime, tz: tzinfo, now: datetime | None) -> str:
    local = when.astimezone(tz)
    clock = f'<span class="time">{local.strftime("%I:%M %p")}</span>'
    if now is not None:
        today = now.astimezone(tz).date()
        if local.date() == today:
            return f"Today,&nbsp;{clock}"
        if local.date() == today - timedelta(days=1):
            return f"Yesterday,&nbsp;{clock}"
    return f"{local.strftime('%m-%d-%Y')},&nbsp;{clock}"


def _post(post: dict, *, topic_id: str, title: str, tz: tzinfo, now: datetime | None) -> str:
    pid, user, number = post["id"], escape(post["user"]), post["number"]
    if post.get("guest"):
        who = f'<span class="username guest">{user}</span>'
    else:
        uid = post.get("user_id") or str(zlib.crc32(post["user"].encode()) % 100000)
        who = (
            '<div class="popupmenu memberaction">\n'
            f'\t\t\t\t\t<a class="username offline popupctrl" href="member.php?u={uid}" title="{user} is offline"><strong>{user}</strong></a>\n'
            "\t\t\t\t</div>\n"
            f'\t\t\t\t<img class="inlineimg onlinestatus" src="images/statusicon/user-offline.png" alt="{user} is offline" border="0" />'
        )
    after = ""
    if post.get("edited") or post.get("signature"):
        edited = (
            '<blockquote class="postcontent lastedited">\n\t\t\t\t<img class="inlineimg" src="images/buttons/edit_40b.png" alt="" border="0" />\n'
            f'\t\t\t\tLast edited by {user}; <span class="time">{post["time"].astimezone(tz).strftime("%m-%d-%Y at %I:%M %p")}</span>.\n'
            "\t\t\t</blockquote>"
            if post.get("edited")
            else ""
        )
        signature = (
            f'<blockquote class="signature restore"><div class="signaturecontainer">{post["signature"]}</div></blockquote>'
            if post.get("signature")
            else ""
        )
        after = (
            f'\n\t\t\t<div class="after_content">\n\t\t\t{edited}\n\t\t\t{signature}\n\t\t\t</div>'
        )
    container = (
        "postbitdeleted postbitim postcontainer"
        if post.get("deleted")
        else "postbitlegacy postbitim postcontainer old"
    )
    return f"""<li class="{container}" id="post_{pid}">
	<div class="posthead">
		<span class="postdate old">
			<span class="date">{_shown_date(post["time"], tz, now)}</span>
		</span>
		<span class="nodecontrols">
			<a name="post{pid}" href="showthread.php?t={topic_id}&amp;p={pid}&amp;viewfull=1#post{pid}" class="postcounter">#{number}</a><a id="postcount{pid}" name="{number}"></a>
		</span>
	</div>
	<div class="postdetails">
		<div class="userinfo">
			<div class="username_container">
				{who}
			</div>
			<span class="usertitle">Member</span>
			<hr />
			<dl class="userinfo_extra"><dt>Join Date</dt> <dd>Mar 2011</dd><dt>Posts</dt> <dd>1,204</dd></dl>
		</div>
		<div class="postbody">
			<div class="postrow{" has_after_content" if after else ""}">
				<h2 class="title icon">Re: {escape(title)}</h2>
				<div class="content">
					<div id="post_message_{pid}">
						<blockquote class="postcontent restore ">{post["content"]}</blockquote>
					</div>
				</div>
			</div>{after}
			<div class="cleardiv"></div>
		</div>
	</div>
	<div class="postfoot"><div class="textcontrols floatcontainer"><span class="postcontrols"></span></div></div>
	<hr />
</li>"""
