"""Files written whole or not at all (grundy.files)."""

import json
import subprocess
import sys

import pytest

from grundy.files import temporary, write_json, write_whole


def test_bytes_text_and_a_writer_each_replace_the_file(tmp_path):
    p = tmp_path / "f"
    write_whole(p, b"\x00\x01")
    assert p.read_bytes() == b"\x00\x01"
    write_whole(p, "·354 ✓")
    assert p.read_text("utf-8") == "·354 ✓"
    write_whole(p, lambda f: f.write(b"written"))
    assert p.read_bytes() == b"written"
    write_json(p, {"code": "·6", "n": [1, 2]}, indent=1)
    assert json.loads(p.read_text("utf-8")) == {"code": "·6", "n": [1, 2]}
    assert "·6" in p.read_text("utf-8")
    assert [q.name for q in tmp_path.iterdir()] == ["f"]


def test_a_writer_that_fails_half_way_leaves_the_old_file_and_no_temporary(tmp_path):
    p = tmp_path / "record.json"
    write_json(p, {"done": 3})

    def half(f):
        f.write(b'{"done": ')
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_whole(p, half)
    assert json.loads(p.read_text()) == {"done": 3}
    assert not temporary(p).exists() and [q.name for q in tmp_path.iterdir()] == ["record.json"]


def test_a_process_killed_mid_write_leaves_the_old_file_readable(tmp_path):
    p = tmp_path / "record.json"
    write_json(p, {"done": 3})
    script = (
        "import os, sys\n"
        "from grundy.files import write_whole\n"
        "def half(f):\n"
        "    f.write(b'{\"done\": ')\n"
        "    f.flush()\n"
        "    os._exit(9)\n"
        "write_whole(sys.argv[1], half)\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(p)], capture_output=True)
    assert out.returncode == 9
    assert json.loads(p.read_text()) == {"done": 3}
    left = [q.name for q in tmp_path.iterdir() if q.name != "record.json"]
    assert len(left) == 1 and left[0].startswith(".record.json.") and left[0].endswith(".tmp")


def test_a_disk_error_is_raised_and_leaves_the_old_file(tmp_path):
    p = tmp_path / "sub" / "f"
    with pytest.raises(FileNotFoundError):
        write_whole(p, b"x")
    assert not (tmp_path / "sub").exists()
