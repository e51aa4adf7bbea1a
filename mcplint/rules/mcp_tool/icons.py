"""MCP: a Tool's ``icons`` (MCP115-MCP117, from 2025-11-25): the Icon object's members, the
``sizes`` format, and which ``src`` URI schemes a client may safely load."""

from __future__ import annotations

import re

from ...model import Severity
from ...registry import rule
from ...versions import since
from .common import V2025_11, is_tool, kind


ICON_MEMBERS = ("src", "mimeType", "sizes", "theme")
SIZE_RE = re.compile(r"^[1-9][0-9]*x[1-9][0-9]*$")


def _icons(tool):
    """(pointer, icon) for each object entry of a well-formed icons array."""
    if not is_tool(tool) or not isinstance(tool.data.get("icons"), list):
        return []
    return [(tool.pointer / "icons" / i, icon) for i, icon in enumerate(tool.data["icons"]) if isinstance(icon, dict)]


@rule("MCP115", "invalid-icon", severity=Severity.ERROR, scope="tool",
      versions=since(V2025_11),
      fix="Give each icon a string src, optional string mimeType, string-array sizes and theme light|dark")
def invalid_icon(tool, ctx):
    """An entry of `icons` does not have the Icon shape.

    ## What it does
    Reports an icon that is not an object, lacks `src`, has a non-string `src` or
    `mimeType`, has `sizes` that is not an array of strings, a `theme` other than
    `"light"`/`"dark"`, or a member Icon does not define.

    ## Why is this bad?
    Icon (2025-11-25+) requires `src` and defines only `src`, `mimeType`, `sizes` and
    `theme`. A client cannot display a malformed icon and may reject the whole tool
    when it validates the list.

    ## Example
    ```json
    {"name": "weather", "inputSchema": {"type": "object"},
     "icons": [{"url": "https://example.com/w.png", "theme": "night"}]}
    ```

    ## Use instead
    ```json
    {"name": "weather", "inputSchema": {"type": "object"},
     "icons": [{"src": "https://example.com/w.png", "theme": "dark"}]}
    ```

    ## References
    MCP schema.ts 2025-11-25/2026-07-28 `Icon`.
    """
    if not is_tool(tool) or not isinstance(tool.data.get("icons"), list):
        return
    for i, icon in enumerate(tool.data["icons"]):
        ptr = tool.pointer / "icons" / i
        if not isinstance(icon, dict):
            yield ctx.finding(ptr, f"icon is {kind(icon)}; each icon must be an object with a src")
            continue
        if "src" not in icon:
            yield ctx.finding(ptr, "icon has no src, which Icon requires; clients cannot display it")
        elif not isinstance(icon["src"], str):
            yield ctx.finding(ptr / "src", f"icon src is {kind(icon['src'])}; it must be a URI string")
        if "mimeType" in icon and not isinstance(icon["mimeType"], str):
            yield ctx.finding(ptr / "mimeType", f"icon mimeType is {kind(icon['mimeType'])}; it must be a string")
        if "sizes" in icon and not (isinstance(icon["sizes"], list) and all(isinstance(s, str) for s in icon["sizes"])):
            yield ctx.finding(ptr / "sizes", "icon sizes must be an array of strings such as \"48x48\" or \"any\"")
        if "theme" in icon and icon["theme"] not in ("light", "dark"):
            yield ctx.finding(ptr / "theme", f"icon theme is {icon['theme']!r}; it must be \"light\" or \"dark\"")
        for key in icon:
            if key not in ICON_MEMBERS:
                yield ctx.finding(ptr / key, f"{key!r} is not an Icon member (src, mimeType, sizes, theme); clients "
                                             "ignore it")


@rule("MCP116", "icon-size-format", severity=Severity.WARNING, scope="tool",
      versions=since(V2025_11),
      fix='Write each size as WIDTHxHEIGHT in pixels (e.g. "48x48") or "any"')
def icon_size_format(tool, ctx):
    """An icon size is neither `WxH` nor `any`.

    ## What it does
    Reports strings in an icon's `sizes` that are not `<width>x<height>` in pixels
    (e.g. `"48x48"`) or `"any"`.

    ## Why is this bad?
    Clients pick an icon by size; a size they cannot parse (`"48"`, `"48px"`,
    `"48X48"`) makes them skip the icon or pick a wrong one.

    ## Example
    ```json
    {"name": "weather", "inputSchema": {"type": "object"},
     "icons": [{"src": "https://example.com/w.png", "sizes": ["48px"]}]}
    ```

    ## Use instead
    ```json
    {"name": "weather", "inputSchema": {"type": "object"},
     "icons": [{"src": "https://example.com/w.png", "sizes": ["48x48"]}]}
    ```

    ## References
    MCP schema.ts 2025-11-25/2026-07-28 `Icon.sizes`: each string "should be in WxH format (e.g.
    "48x48", "96x96") or "any" for scalable formats".
    """
    for ptr, icon in _icons(tool):
        sizes = icon.get("sizes")
        if not isinstance(sizes, list):
            continue
        for j, s in enumerate(sizes):
            if isinstance(s, str) and s != "any" and not SIZE_RE.match(s):
                yield ctx.finding(ptr / "sizes" / j, f"icon size {s!r} is neither WIDTHxHEIGHT (e.g. \"48x48\") nor "
                                                     "\"any\"; clients cannot use it to pick an icon")


@rule("MCP117", "unsafe-icon-uri", severity=Severity.ERROR, scope="tool",
      versions=since(V2025_11),
      fix="Serve the icon over https: or embed it as a data: URI")
def unsafe_icon_uri(tool, ctx):
    """An icon `src` uses a scheme other than `https:` or `data:`.

    ## What it does
    Reports an icon `src` whose URI scheme is not `https` or `data` (e.g. `javascript:`,
    `file:`, `ftp:`, a relative path) as an error, and a plain `http:` URL as a warning.

    ## Why is this bad?
    Consumers MUST reject unsafe icon URI schemes and accept only `https:` and `data:`,
    so such an icon is never shown; `file:` or `javascript:` icons are also an attack
    surface. Plain `http:` is named by the schema but is not in the prose's safe list,
    and many clients refuse mixed content.

    ## Example
    ```json
    {"name": "weather", "inputSchema": {"type": "object"}, "icons": [{"src": "file:///tmp/w.png"}]}
    ```

    ## Use instead
    ```json
    {"name": "weather", "inputSchema": {"type": "object"}, "icons": [{"src": "https://example.com/w.png"}]}
    ```

    ## References
    MCP basic/index.mdx "Icons" 2025-11-25/2026-07-28: consumers MUST reject unsafe
    schemes; only `https:` or `data:`.
    """
    for ptr, icon in _icons(tool):
        src = icon.get("src")
        if not isinstance(src, str):
            continue
        m = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", src)
        scheme = m.group(1).lower() if m else None
        if scheme in ("https", "data"):
            continue
        if scheme == "http":
            yield ctx.finding(ptr / "src", "icon src is a plain http: URL; clients accept only https: and data: "
                                           "icons and may refuse it", severity=Severity.WARNING)
        else:
            what = f"the {scheme}: scheme" if scheme else "no URI scheme (a relative reference)"
            yield ctx.finding(ptr / "src", f"icon src uses {what}; clients MUST reject icons that are not https: or "
                                           "data:, so it is never shown")
