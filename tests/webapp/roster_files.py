"""Hostile roster files for the import tests: each is refused with a clear message, quickly."""

from __future__ import annotations

import io
import json
import zipfile

NS = "http://www.battlescribe.net/schema/rosterSchema"
HEAD = (f'<roster id="r" name="x" gameSystemId="g" gameSystemName="Runewars" xmlns="{NS}">')


def billion_laughs() -> bytes:
    lines = ['<?xml version="1.0"?>', "<!DOCTYPE roster [", ' <!ENTITY lol "lol">']
    for i in range(1, 10):
        prev = f"&lol{i - 1};" if i > 1 else "&lol;"
        lines.append(f' <!ENTITY lol{i} "{prev * 10}">')
    lines += ["]>", f'{HEAD}<forces><force name="&lol9;"/></forces></roster>']
    return "\n".join(lines).encode()


def external_entity() -> bytes:
    return (b'<?xml version="1.0"?>\n<!DOCTYPE roster [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
            + HEAD.encode() + b"<forces><force name='&xxe;'/></forces></roster>")


def zip_bomb() -> bytes:
    """A .rosz of 20 KiB whose one member unzips to 20 MiB of spaces."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.ros", HEAD.encode() + b" " * (20 * 1024 * 1024) + b"</roster>")
    return buf.getvalue()


def deep_nesting(levels: int = 2000) -> bytes:
    return (HEAD + "<forces><force>" + "<selections><selection>" * levels
            + "</selection></selections>" * levels + "</force></forces></roster>").encode()


def huge_attribute(size: int = 200_000) -> bytes:
    return (HEAD + f'<forces><force name="{"A" * size}"/></forces></roster>').encode()


def wrong_schema() -> bytes:
    return (b'<?xml version="1.0"?>\n<catalogue id="c" name="Daqan Lords" '
            b'xmlns="http://www.battlescribe.net/schema/catalogueSchema"/>')


def other_game() -> bytes:
    return json.dumps({"roster": {"name": "x", "gameSystemName": "Warhammer 40,000", "forces": [
        {"name": "f", "catalogueName": "Space Marines", "selections": []}]}}).encode()


HOSTILE = {
    "billion-laughs.ros": (billion_laughs, "dtd"),
    "external-entity.ros": (external_entity, "dtd"),
    "zip-bomb.rosz": (zip_bomb, "unzips to"),
    "deep-nesting.ros": (deep_nesting, "nested too deeply"),
    "huge-attribute.ros": (huge_attribute, "too long"),
    "wrong-schema.ros": (wrong_schema, "not a battlescribe roster"),
    "other-game.json": (other_game, "not runewars miniatures"),
}
"""File name -> (maker, a fragment of the message, lower case)."""
