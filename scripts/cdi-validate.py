#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# cdi-validate.py FILE: check a Container Device Interface spec (kohaku
# cdi's output) against the CDI schema's required fields and types and the
# spec's name rules, with no network and no jsonschema package: a small
# subset of JSON Schema (type, required, properties, items, minimum,
# maximum, additionalProperties false) over the schema's own words.
#
# Copied from github.com/cncf-tags/container-device-interface:
#   schema/schema.json and schema/defs.json (commit 05ae4b5, "1.1.0"):
#     the spec: cdiVersion, kind, devices required; no other members than
#     cdiVersion, kind, annotations, devices, containerEdits (0.6.0 added
#     annotations: refused here for cdiVersion 0.5.0); a device: name and
#     containerEdits required; a DeviceNode: path required, hostPath,
#     permissions, type strings, major, minor int64, uid, gid uint32
#     (fileMode: specs-go/config.go's *os.FileMode, a uint32)
#   SPEC.md: devices has at least one entry; kind is vendor/class (the
#     vendor a DNS-like name, the class letters, digits, '_' and '-');
#     a device name begins and ends with a letter or digit (a digit only
#     from 0.5.0 on) with letters, digits, '_', '-', '.', ':' between
#     (pkg/cdi/qualified-device.go, v0.5.2: ValidateVendorName,
#     ValidateClassName, ValidateDeviceName); names unique in a spec
#   pkg/cdi/spec.go v0.5.2: the versions Debian 12's podman (CDI 0.5.2)
#     accepts, 0.1.0 to 0.5.0
# Prints "ok" or the problems, one a line; exits 0 or 1.
import json
import re
import sys

UINT32 = {"type": "integer", "minimum": 0, "maximum": 4294967295}
INT64 = {"type": "integer", "minimum": -(1 << 63), "maximum": (1 << 63) - 1}
STRINGS = {"type": "array", "items": {"type": "string"}}
DEVICE_NODE = {
    "type": "object",
    "properties": {
        "path": {"type": "string"}, "hostPath": {"type": "string"},
        "permissions": {"type": "string"}, "type": {"type": "string"},
        "major": INT64, "minor": INT64, "fileMode": UINT32,
        "uid": UINT32, "gid": UINT32,
    },
    "required": ["path"],
}
MOUNT = {
    "type": "object",
    "properties": {"hostPath": {"type": "string"},
                   "containerPath": {"type": "string"},
                   "options": STRINGS, "type": {"type": "string"}},
    "required": ["hostPath", "containerPath"],
}
HOOK = {
    "type": "object",
    "properties": {"hookName": {"type": "string"}, "path": {"type": "string"},
                   "args": STRINGS, "env": STRINGS, "timeout": UINT32},
    "required": ["hookName", "path"],
}
CONTAINER_EDITS = {
    "type": "object",
    "properties": {
        "env": STRINGS,
        "deviceNodes": {"type": "array", "items": DEVICE_NODE},
        "mounts": {"type": "array", "items": MOUNT},
        "hooks": {"type": "array", "items": HOOK},
    },
}
SPEC = {
    "type": "object",
    "properties": {
        "cdiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "devices": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"},
                               "containerEdits": CONTAINER_EDITS},
                "required": ["name", "containerEdits"],
                "additionalProperties": False,
            },
        },
        "containerEdits": CONTAINER_EDITS,
    },
    "required": ["cdiVersion", "kind", "devices"],
    "additionalProperties": False,
}
TYPES = {"object": dict, "array": list, "string": str}


def check(v, s, where, errs):
    t = s.get("type")
    if t == "integer":
        if not isinstance(v, int) or isinstance(v, bool):
            errs.append("%s: not an integer: %r" % (where, v))
            return
        if v < s.get("minimum", v) or v > s.get("maximum", v):
            errs.append("%s: %d out of range" % (where, v))
        return
    if t and not isinstance(v, TYPES[t]):
        errs.append("%s: not a %s: %r" % (where, t, v))
        return
    if t == "object":
        for r in s.get("required", []):
            if r not in v:
                errs.append("%s: required member %r missing" % (where, r))
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props:
                check(x, props[k], "%s.%s" % (where, k), errs)
            elif s.get("additionalProperties") is False:
                errs.append("%s: member %r not allowed" % (where, k))
    if t == "array":
        for i, x in enumerate(v):
            check(x, s["items"], "%s[%d]" % (where, i), errs)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    errs = []
    check(spec, SPEC, "spec", errs)
    if not errs:
        ver = spec["cdiVersion"]
        if ver not in ("0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0"):
            errs.append("cdiVersion %r: Debian 12's podman (CDI 0.5.2) "
                        "reads 0.1.0 to 0.5.0" % ver)
        m = re.fullmatch(r"([A-Za-z](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?)/"
                         r"([A-Za-z](?:[A-Za-z0-9_-]*[A-Za-z0-9])?)",
                         spec["kind"])
        if not m:
            errs.append("kind %r is not vendor/class" % spec["kind"])
        if not spec["devices"]:
            errs.append("devices: a CDI spec needs at least one device")
        names = [d["name"] for d in spec["devices"]]
        for n in names:
            if not re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9_.:-]*[A-Za-z0-9])?",
                                n):
                errs.append("device name %r is invalid" % n)
        if len(set(names)) != len(names):
            errs.append("device names repeat: %r" % names)
        for d in spec["devices"]:
            for n in d["containerEdits"].get("deviceNodes", []):
                if not n["path"].startswith("/"):
                    errs.append("%s: path %r is not absolute" %
                                (d["name"], n["path"]))
                if n.get("type", "c") not in ("c", "b", "u", "p"):
                    errs.append("%s: type %r" % (d["name"], n["type"]))
    for e in errs:
        print(e)
    if not errs:
        print("ok")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
