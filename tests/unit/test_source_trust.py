"""The one rule every read of an install source goes through (`wizard.source_trust`, twenty-first hostile pass P1):
a source another local user could swap is refused, naming the place and the fix; one only its reader (and root,
and for a normal user the folder's owner and group) can change is read. Real folders, real modes, real owners."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fixtures.modes import ACL_GROUP as _GROUP
from tests.fixtures.modes import ACL_USER as _USER
from tests.fixtures.modes import NOBODY, need_root, open_folder, swap_risk_as_nobody
from tests.fixtures.modes import set_acl as _set_acl
from wizard.errors import ExitCode, UserError
from wizard.source_trust import acl_writers, refuse_swappable_source, swap_risk


def _wheelhouse(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    wheel = folder / "pkg_a-1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    wheel.chmod(0o644)
    return folder


def _refusal(path: Path) -> str:
    with pytest.raises(UserError) as info:
        refuse_swappable_source(f"--find-links {path}", path, "the wheelhouse")
    assert info.value.exit_code == ExitCode.BAD_INPUT
    return str(info.value)


def test_a_wheelhouse_under_a_folder_every_user_can_write_is_refused_naming_that_folder(tmp_path):
    shared = open_folder(tmp_path / "ww")
    house = _wheelhouse(shared / "wh")
    text = _refusal(house)
    assert text.startswith(f"--find-links {house}: its folder {shared} is a folder every user can write (and has "
                           "no sticky bit")
    assert f"`chmod o-w {shared}`" in text and "copy the wheelhouse to a folder only you can write" in text


def test_every_folder_on_the_way_counts_not_only_the_parent(tmp_path):
    shared = open_folder(tmp_path / "ww")
    mine = shared / "mine"
    mine.mkdir(mode=0o700)
    house = _wheelhouse(mine / "deep" / "wh")
    assert f"the folder {shared} above it" in _refusal(house)


def test_a_link_to_a_wheelhouse_in_such_a_folder_is_refused_where_it_leads(tmp_path):
    house = _wheelhouse(open_folder(tmp_path / "ww") / "wh")
    (tmp_path / "mine").mkdir(mode=0o700)
    link = tmp_path / "mine" / "wh"
    link.symlink_to(house)
    assert f": {tmp_path / 'ww'}, where it leads, is a folder every user can write" in _refusal(link)


def test_a_sticky_folder_above_is_fine_but_a_sticky_wheelhouse_itself_is_not(tmp_path):
    """/tmp's sticky bit keeps others from renaming what is yours, but a wheelhouse every user can add files to
    takes their newer wheel even so."""
    tmp = open_folder(tmp_path / "tmp", sticky=True)
    assert swap_risk(_wheelhouse(tmp / "wh")) is None
    house = open_folder(tmp / "open-wh", sticky=True)
    assert _refusal(house).startswith(f"--find-links {house}: it is a folder every user can write, so")


def test_a_file_inside_that_every_user_can_write_is_refused_by_name(tmp_path):
    house = _wheelhouse(tmp_path / "wh")
    wheel = house / "pkg_a-1.0-py3-none-any.whl"
    wheel.chmod(0o666)
    text = _refusal(house)
    assert f"{wheel}, inside it, is a file every user can write" in text and f"`chmod o-w {wheel}`" in text


def test_a_link_inside_that_leads_to_a_swappable_place_is_refused(tmp_path):
    elsewhere = _wheelhouse(open_folder(tmp_path / "ww") / "other")
    house = _wheelhouse(tmp_path / "wh")
    (house / "pkg_b-1.0-py3-none-any.whl").symlink_to(elsewhere / "pkg_a-1.0-py3-none-any.whl")
    assert f"{tmp_path / 'ww'}, where a link in it leads, is a folder every user can write" in _refusal(house)


def test_a_device_every_user_can_write_is_no_swappable_content(tmp_path):
    """/dev/null and /dev/zero are 0666 on every machine: a link to one is refused by the reader as no regular
    file (the recipe loader names it), never as a swap risk."""
    house = _wheelhouse(tmp_path / "wh")
    (house / "x.whl").symlink_to("/dev/zero")
    assert swap_risk(house) is None


def test_a_link_inside_back_up_to_the_wheelhouse_does_not_loop(tmp_path):
    house = _wheelhouse(tmp_path / "wh")
    (house / "again").symlink_to(house)
    assert swap_risk(house) is None


def test_a_source_only_its_owner_can_write_is_read(tmp_path):
    assert swap_risk(_wheelhouse(tmp_path / "wh")) is None
    refuse_swappable_source("--lock x", tmp_path / "wh" / "pkg_a-1.0-py3-none-any.whl", "the lock")


def test_a_missing_source_is_left_to_its_reader_to_name(tmp_path):
    assert swap_risk(tmp_path / "nothing") is None


def test_for_root_a_source_another_user_owns_is_refused(tmp_path):
    """Whoever can change what root installs gets root: the owner is no longer someone root may trust."""
    need_root("give a folder to another user")
    house = _wheelhouse(tmp_path / "wh")
    os.chown(house, NOBODY, NOBODY)
    text = _refusal(house)
    assert "it is a folder that user" in text and f"(uid {NOBODY}) owns, and gc-wizard runs as root" in text


def test_for_root_a_folder_a_group_other_than_roots_can_write_is_refused(tmp_path):
    need_root("give a folder to another group")
    house = _wheelhouse(tmp_path / "wh")
    os.chown(house, 0, NOBODY)
    house.chmod(0o775)
    text = _refusal(house)
    assert f"(gid {NOBODY}) can write, and gc-wizard runs as root" in text and f"`chmod g-w {house}`" in text


def test_for_a_normal_user_a_group_writable_lab_wheelhouse_of_another_owner_is_read(public_tmp):
    """The README's lab layout: an admin's group-writable wheelhouse, read by a member who is not root."""
    house = _wheelhouse(public_tmp / "lab-wh")
    house.chmod(0o775)
    assert swap_risk_as_nobody(house) == "None"


def test_for_a_normal_user_a_folder_every_user_can_write_is_refused_too(public_tmp):
    shared = open_folder(public_tmp / "ww")
    house = _wheelhouse(shared / "wh")
    assert swap_risk_as_nobody(house).startswith(f"(PosixPath('{shared}'), 'is a folder every user can write")


# Twenty-second hostile pass, part B. P1: a link another user owns, in a sticky folder, passed, and the link (not
# where it led) went to uv, so flipping it after the check installed their wheel as root.

def _sticky_link(tmp_path: Path, target: Path, owner: int) -> Path:
    """A link to `target` in a sticky folder every user can write (as /tmp is), owned by `owner`."""
    tmp = open_folder(tmp_path / "tmp", sticky=True)
    link = tmp / "wh"
    link.symlink_to(target)
    os.lchown(link, owner, owner)
    return link


def test_for_root_a_link_another_user_owns_in_a_sticky_folder_is_their_place(tmp_path):
    need_root("give a link to another user")
    link = _sticky_link(tmp_path, _wheelhouse(tmp_path / "wh"), NOBODY)
    text = _refusal(link)
    assert text.startswith(f"--find-links {link}: it is a link that user ") and f"(uid {NOBODY}) owns" in text
    assert f"`readlink -f {link}`" in text and "nothing was read from it" in text


def test_for_root_a_link_another_user_owns_further_on_the_way_is_refused_by_name(tmp_path):
    """Above the source as given, and inside where another (root's own) link leads: every link walked counts."""
    need_root("give a link to another user")
    house = _wheelhouse(tmp_path / "wh")
    theirs = _sticky_link(tmp_path, house, NOBODY)  # tmp/wh -> wh, theirs
    (tmp_path / "mine").mkdir(mode=0o700)
    above = tmp_path / "mine" / "up"
    above.symlink_to(theirs.parent)  # mine/up -> tmp (root's link), then tmp/wh is theirs
    assert f"--find-links {above / 'wh'}: {theirs}, on its way, is a link that user " in _refusal(above / "wh")
    hop = tmp_path / "mine" / "hop"
    hop.symlink_to(theirs)  # root's link to their link
    assert f": {theirs}, on its way, is a link that user " in _refusal(hop)


def test_for_root_a_link_inside_the_wheelhouse_that_another_user_owns_is_named_inside_it(tmp_path):
    need_root("give a link to another user")
    house = _wheelhouse(tmp_path / "wh")
    inner = house / "pkg_b-1.0-py3-none-any.whl"
    inner.symlink_to(house / "pkg_a-1.0-py3-none-any.whl")
    os.lchown(inner, NOBODY, NOBODY)
    assert f"--find-links {house}: {inner}, inside it, is a link that user " in _refusal(house)


def test_a_folder_a_link_on_the_way_sits_in_counts_though_neither_end_is_under_it(tmp_path):
    """mine/hop -> ww/relay -> wh: the 0777 folder holding the relay link is neither above the path as given nor
    above where it ends, yet whoever can write it can point the relay elsewhere."""
    house = _wheelhouse(tmp_path / "wh")
    shared = open_folder(tmp_path / "ww")
    (shared / "relay").symlink_to(house)
    (tmp_path / "mine").mkdir(mode=0o700)
    hop = tmp_path / "mine" / "hop"
    hop.symlink_to(shared / "relay")
    assert f"--find-links {hop}: {shared}, on its way, is a folder every user can write" in _refusal(hop)


def test_the_path_handed_back_is_where_the_links_lead_so_a_later_flip_changes_nothing_read(tmp_path):
    """Root's own link in a sticky folder passes; the reader gets where it led at the check, not the link."""
    house = _wheelhouse(tmp_path / "wh")
    link = _sticky_link(tmp_path, house, os.geteuid())
    got = refuse_swappable_source(f"--find-links {link}", link, "the wheelhouse")
    assert got == house
    evil = _wheelhouse(tmp_path / "evil")
    link.unlink()
    link.symlink_to(evil)
    assert got == house and os.path.realpath(link) == str(evil)


def test_a_path_without_links_comes_back_as_given(tmp_path):
    house = _wheelhouse(tmp_path / "wh")
    assert refuse_swappable_source("--find-links x", house, "the wheelhouse") == house


def test_for_a_normal_user_a_link_in_a_sticky_folder_is_its_owners_place_as_their_file_is(public_tmp):
    """A reader who is not root trusts the owner of what they use (the module docstring): not refused."""
    house = _wheelhouse(public_tmp / "wh")
    tmp = open_folder(public_tmp / "tmp", sticky=True)
    (tmp / "wh").symlink_to(house)
    assert swap_risk_as_nobody(tmp / "wh") == "None"


# P2: POSIX ACLs were not read; `-rw-rw-r--+ root root` with an entry `user:tuser:rw` passed as root's own.

def test_for_root_a_wheel_another_user_may_write_through_an_acl_entry_is_refused(tmp_path):
    need_root("read an ACL as root's rule does")
    house = _wheelhouse(tmp_path / "wh")
    wheel = house / "pkg_a-1.0-py3-none-any.whl"
    _set_acl(wheel, (_USER, 6, NOBODY))
    text = _refusal(house)
    assert f"{wheel}, inside it, is a file that user " in text and f"(uid {NOBODY}) may write through an ACL" in text
    assert f"`setfacl -x u:{_account(NOBODY)} {wheel}`" in text


def test_for_root_a_folder_a_named_group_may_write_through_an_acl_entry_is_refused(tmp_path):
    need_root("read an ACL as root's rule does")
    house = _wheelhouse(tmp_path / "wh")
    _set_acl(house, (_GROUP, 7, NOBODY))
    text = _refusal(house)
    assert text.startswith(f"--find-links {house}: it is a folder that group ")
    assert f"(gid {NOBODY}) may write through an ACL entry" in text and "`setfacl -x g:" in text


def test_for_root_an_acl_entry_on_a_folder_above_counts_as_its_write(tmp_path):
    need_root("read an ACL as root's rule does")
    above = tmp_path / "lab"
    house = _wheelhouse(above / "deep" / "wh")
    _set_acl(above, (_USER, 7, NOBODY))
    assert f"the folder {above} above it is a folder that user " in _refusal(house)


def test_for_root_a_default_acl_on_the_wheelhouse_is_refused_as_new_wheels_would_get_it(tmp_path):
    need_root("read an ACL as root's rule does")
    house = _wheelhouse(tmp_path / "wh")
    _set_acl(house, (_USER, 6, NOBODY), default=True)
    text = _refusal(house)
    assert "it is a folder whose default ACL lets user " in text and f"`setfacl -d -x u:{_account(NOBODY)} " in text


def test_an_acl_entry_the_mask_caps_or_that_only_reads_is_no_write(tmp_path):
    need_root("read an ACL as root's rule does")
    house = _wheelhouse(tmp_path / "wh")
    wheel = house / "pkg_a-1.0-py3-none-any.whl"
    _set_acl(wheel, (_USER, 6, NOBODY), mask=4)
    _set_acl(house, (_USER, 5, NOBODY), (_GROUP, 7, 0))  # root's group is root's own
    assert swap_risk(house) is None
    assert acl_writers(wheel) == [] and acl_writers(house) == []


def test_acl_writers_reads_the_kernels_form(tmp_path):
    wheel = _wheelhouse(tmp_path / "wh") / "pkg_a-1.0-py3-none-any.whl"
    assert acl_writers(wheel) == []
    _set_acl(wheel, (_USER, 2, 1001), (_USER, 4, 1002), (_GROUP, 7, 1003))
    assert acl_writers(wheel) == [(_USER, 1001), (_GROUP, 1003)]


def _account(uid: int) -> str:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)
def test_an_open_folder_you_own_leads_with_its_chmod_and_names_the_sticky_bit(tmp_path):
    """Walk 22 #7: `chmod +t` fixes a folder above as well as `chmod o-w` does; the message only hinted at it."""
    shared = open_folder(tmp_path / "ww")
    house = _wheelhouse(shared / "wh")
    text = _refusal(house)
    assert f"Take that away (`chmod o-w {shared}`, or `chmod +t {shared}`), or copy the wheelhouse" in text
    assert f"(`cp -rL {house} ~/wh`)" in text and "belongs to" not in text


def test_an_open_folder_another_user_owns_leads_with_the_copy_and_names_its_owner(tmp_path):
    """Walk 22 #7: "Take that away (`chmod o-w /shared`)" assumed the reader owns the lab's shared folder, usually an
    admin's, whose chmod they cannot run. Decided from the folder's owner: the copy (with its command) comes first,
    then who to ask for the chmod."""
    need_root("give a folder to another user")
    shared = open_folder(tmp_path / "ww")
    os.chown(shared, NOBODY, NOBODY)
    house = _wheelhouse(shared / "wh")
    text = _refusal(house)
    owner = f"(uid {NOBODY})"
    assert "It belongs to user" in text and f"{owner}, not you: copy the wheelhouse to a folder of your own " \
        f"(`cp -rL {house} ~/wh`) and give that instead, or ask them to take that away (`chmod o-w {shared}`, " \
        f"or `chmod +t {shared}`); nothing was read from it." in text, text
    assert "Take that away" not in text


# Known limit after pass 24: links/ACLs judged only for root — a reader who is not root trusts the owner and group of
# what they read, but not a third user an ACL entry lets write it, nor a third user's link in a sticky folder that
# leads to someone else's files. Run as a second user with runuser.

def test_for_another_reader_an_acl_entry_letting_a_third_user_write_their_own_wheel_is_refused(public_tmp,
                                                                                             second_user):
    import pwd

    from tests.fixtures.modes import swap_risk_as

    uid = pwd.getpwnam(second_user).pw_uid
    house = _wheelhouse(public_tmp / "wh")
    wheel = house / "pkg_a-1.0-py3-none-any.whl"
    for place in (house, wheel):
        os.chown(place, uid, uid)
    assert swap_risk_as(second_user, house) == "None"  # their own files: fine
    _set_acl(wheel, (_USER, 6, uid))  # an entry for the reader themself: still theirs
    assert swap_risk_as(second_user, house) == "None"
    _set_acl(wheel, (_USER, 6, NOBODY))
    text = swap_risk_as(second_user, house)
    assert "may write through an ACL entry, who is neither you nor its owner" in text and f"(uid {NOBODY})" in text
    _set_acl(house, (_GROUP, 7, NOBODY), default=True)
    os.removexattr(wheel, "system.posix_acl_access")
    assert "whose default ACL lets group " in swap_risk_as(second_user, house)


def test_for_another_reader_a_third_users_link_in_a_sticky_folder_to_their_files_is_refused(public_tmp, second_user):
    import pwd

    from tests.fixtures.modes import swap_risk_as

    uid = pwd.getpwnam(second_user).pw_uid
    house = _wheelhouse(public_tmp / "wh")
    for place in (house, *house.iterdir()):
        os.chown(place, uid, uid)
    sticky = open_folder(public_tmp / "sticky", sticky=True)
    theirs, mine = sticky / "theirs", sticky / "mine"
    theirs.symlink_to(house)
    mine.symlink_to(house)
    os.lchown(theirs, NOBODY, NOBODY)
    os.lchown(mine, uid, uid)
    assert swap_risk_as(second_user, mine) == "None"
    text = swap_risk_as(second_user, theirs)
    assert "is a link that user " in text and "in a folder anyone may put links in, leading to what you own" in text
