"""The local places an install, a lock or a bundle reads its packages from, each refused when another user could
swap it (`wizard.source_trust`): the user's wheelhouses, the recipe's own `find_links` folders and `file://`
`extra_index_urls`, and the GraphCast source (the user's `--graphcast-src`, or the recipe's `file://` one).

Why one list for the three commands: `plan`/`install`, `lock` and `bundle` each take wheelhouses and a GraphCast
source, and each reads them; a check in one of them only left the others open (twenty-first hostile pass P1).
URLs other than `file://` are the index's business (hashes, TLS), not a folder's modes.

Each place comes back as where its links lead, checked, and that is what uv and pip are given: a link another user
could flip between the check and the read was the twenty-second pass's P1.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from urllib.parse import quote

from wizard.errors import UserError
from wizard.install.source_env import given_as
from wizard.install.source_spelling import source_spelling
from wizard.installer_files import unplaced_words
from wizard.security import local_url, source_place
from wizard.source_trust import refuse_swappable_source


def _local_url(text: str) -> tuple[str, str, str] | None:
    """(the VCS prefix such as `git+`, or '', the path, what follows the path — a VCS `@REV`, a `?query`, a
    `#fragment`) for a local URL in any form uv and pip read (`security.local_url`, the one parser), else None;
    ValueError for a `file:` URL on another host. The path of `file://localhost/x` is `/x`."""
    found = local_url(text)
    if found is None:
        return None
    prefix, path, tail = found
    if prefix:  # `git+file:///repo@v0.1.1`: the revision follows the path after its last `@`
        head, at, revision = path.rpartition("@")
        if at and "/" not in revision:
            path, tail = head, f"@{revision}{tail}"
    return prefix, path, tail


def local_path(location: str, named: str | None = None) -> Path | None:
    """The folder or file a find-links entry or GraphCast source names on this machine (a path, a `file:` URL in any
    form, `graphcast @ file://…`, a `git+file://` repository with or without `@REV`), or None for a remote one;
    a UserError naming it (`named`, else the value) for a `file:` URL on another host, which names no place here.

    Why every local URL form: 27th hostile pass (part B) P7 — `--graphcast-src git+file:///DIR` was taken for a
    remote URL, so a repository every user could write (another user's commit in it) skipped the swap rule the
    plain path meets, and root built it; 28th (part B) P4 — `file:/DIR`, `file:DIR` and `file:\\DIR` the same."""
    try:
        return source_spelling(location).place  # the one reading of a source's spelling (31st pass (part B) P5)
    except ValueError as exc:
        raise UserError(unplaced_words(named or location, str(exc), "Nothing was read from it.")) from None


def package_place(location: str, named: str) -> Path | None:
    """The place on this machine a package source (a wheelhouse, an index) names (`security.source_place`), None
    for an http(s) one; a UserError naming it for one that is neither, which the installer would read some way no
    check here looks at (28th hostile pass (part B) P4)."""
    try:
        return source_place(location)
    except ValueError as exc:
        raise UserError(unplaced_words(named, str(exc), "Nothing was read from it.")) from None


def _located(location: str, where: Path, resolved: Path) -> str:
    """`location` naming `resolved` instead, in its own form (a path, a `file://` URL, `name @ file://…`); as it
    was where no link was followed (a missing path too, left to its reader to name as the user gave it)."""
    if resolved == Path(os.path.abspath(where)):
        return location
    head, _, text = location.rpartition(" @ ") if " @ " in location else ("", "", location)
    text = text.strip()
    found = _local_url(text)
    if found is not None:
        text = f"{found[0]}file://" + quote(str(resolved)) + found[2]
    else:
        text = str(resolved)
    return f"{head} @ {text}" if head else text


def _give(variable: str | None) -> str:
    """What to do with the copy a refusal offers: give it in place of the option, or point the variable at it
    (copying alone leaves the variable naming the refused place)."""
    return f"point {variable} at it instead" if variable else "give that instead"


def refuse_swappable_sources(recipe, find_links: tuple[str, ...] | list[str], graphcast_src: str | None, *,
                             graphcast: bool = True, graphcast_harm: str = "install (and run) their code"):
    """UserError (exit 2), before anything is read or made, for the first local source another user could swap;
    else (recipe, find_links, graphcast_src) with each local place named where its links lead (the recipe's
    `find_links` and `graphcast.source` too), to be given to the installer in their place.
    `recipe` None: the user's sources alone (checked at start-up, before a recipe is chosen); `graphcast` False:
    a lock, which holds no GraphCast. `graphcast_harm`: what gc-wizard would do with a swapped GraphCast source, in
    the refusal; `verify` imports the checkout and installs nothing, so its refusal says so (fixers' leftover: verify
    refusal wording)."""
    links = []
    for link in find_links:
        # named as given, an option or a variable, whose fix is then to point the variable at the copy (`_give`)
        where = package_place(link, given_as(link, "--find-links")[0])
        if where is not None:
            named, variable = given_as(link, "--find-links", where)
            link = _located(link, where, refuse_swappable_source(named, where, "the wheelhouse", give=_give(variable)))
        links.append(link)
    # The recipe's own package sources, its wheelhouses and its indexes alike: a `file://` index in another user's
    # folder was installed from while the same folder as `find_links` was refused (28th pass (part B) P1).
    for field, what in (("find_links", "find_links folder"), ("extra_index_urls", "extra_index_urls index")):
        given = getattr(recipe, field, ()) if recipe is not None else ()
        own = []
        for link in given:
            where = package_place(link, f"recipe {recipe.id}'s {field} entry {link}")
            if where is not None:
                link = _located(link, where, refuse_swappable_source(
                    f"recipe {recipe.id}'s {what} {where}", where, "the wheelhouse"))
            own.append(link)
        if tuple(own) != tuple(given):
            recipe = dataclasses.replace(recipe, **{field: tuple(own)})
    if not graphcast:
        return recipe, type(find_links)(links), graphcast_src
    source = graphcast_src or (recipe.graphcast.source if recipe is not None else None)
    where = local_path(source, given_as(graphcast_src, "--graphcast-src", "")[0].rstrip(" =") if graphcast_src
                       else f"recipe {recipe.id}'s graphcast.source") if source else None
    if where is not None:
        named, variable = given_as(graphcast_src, "--graphcast-src", where) if graphcast_src else \
            (f"recipe {recipe.id}'s graphcast.source {where}", None)
        located = _located(source, where, refuse_swappable_source(named, where, "the GraphCast source",
                                                                  harm=graphcast_harm, give=_give(variable)))
        if graphcast_src:
            graphcast_src = located
        elif located != source:
            recipe = dataclasses.replace(recipe, graphcast=dataclasses.replace(recipe.graphcast, source=located))
    return recipe, type(find_links)(links), graphcast_src
