#!/usr/bin/env bash
# Makes the files the offline image (-Pimage) adds to its scratch base, so that no base image is fetched:
#   opt/java/                a Java runtime made by jlink from JDK, with the modules the server uses
#   lib*/...                 the C libraries that runtime links against (glibc, libstdc++, zlib, ...), copied
#                            from this machine at the paths the dynamic linker looks at
#   etc/passwd, etc/group    the user the image runs as, nonroot (65532), and root
#   tmp/                     for the JVM's temporary files
#
# Usage: runtime-root.sh JDK OUT   (Linux; JDK is the one Maven runs on unless -Dimage.jdk=... says another)
# The result depends on JDK and this machine's libraries only: the same machine makes the same files.
set -euo pipefail

jdk=$1
out=$2
# java.base and what the server and its libraries use (jdeps over the server's class path, plus
# jdk.crypto.ec, which TLS to the API server needs and which nothing refers to by name).
modules=java.base,java.logging,java.management,java.naming,java.net.http,java.sql,jdk.crypto.ec,jdk.unsupported

rm -rf "$out"
mkdir -p "$out/opt" "$out/etc" "$out/tmp"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --output "$out/opt/java"

# Every library a binary or shared object of the runtime needs, as the dynamic linker resolves it here,
# copied (not linked) to the same path; the linker itself included.
find "$out/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \) -print0 \
  | xargs -0 ldd 2>/dev/null \
  | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' \
  | sort -u \
  | grep -v "^$out/" \
  | while read -r lib; do
      mkdir -p "$out$(dirname "$lib")"
      cp -L "$lib" "$out$lib"
    done

cat >"$out/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
nonroot:x:65532:65532:nonroot:/tmp:/sbin/nologin
PASSWD
cat >"$out/etc/group" <<'GROUP'
root:x:0:
nonroot:x:65532:
GROUP
