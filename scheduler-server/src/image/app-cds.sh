#!/usr/bin/env bash
# Makes the offline image's class-data-sharing archive (-Pimage): the classes classes.lst names, parsed, verified
# and laid out as the JVM keeps them, in one file that the image's Java runtime maps at start instead of reading
# each class from its jar. At 500 nodes on 2 CPUs, in runs paired with runs without it, the first binding after
# launch came at 1.8-2.3 s instead of 2.7 s, with peak RSS about 8 MiB lower (docs/performance.md, "Start-up").
#
# Usage: app-cds.sh JAVA CLASSPATH_FILE APP_JAR CLASS_LIST OUT [JVM FLAG...]
#   JAVA            the image's java (image-root/opt/java/bin/java): an archive is valid only for the JVM that
#                   made it
#   CLASSPATH_FILE  the server's runtime dependencies, as maven-dependency-plugin's build-classpath writes them
#   APP_JAR         the server's own jar
#   CLASS_LIST      the classes to archive (classes.lst, made by class-list.sh)
#   OUT             the directory the image gets at /app: kubesched.jsa and kubesched-classpath
#   JVM FLAG...     the image's flags (the archive records the collector and compressed pointers it was made with)
#
# The JVM maps an archive only with the class path it was made with, each jar of the same size and modification
# time. Jib puts the server's jar in /app/classpath/ and each dependency in /app/libs/, named as in the local
# repository, every file dated 1 s past the epoch. So the jars are copied here the same way and archived on a
# class path relative to /app, the image's working directory. kubesched-classpath, the entrypoint's class path,
# names them relative first and then again under /app/: a container started in another working directory finds
# no relative jar, runs without the archive and loads every class from /app/ as before.
set -euo pipefail

java=$(realpath "$1")
classpath_file=$2
app_jar=$3
class_list=$(realpath "$4")
mkdir -p "$5"
out=$(realpath "$5")
shift 5

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/classpath" "$stage/libs"
cp "$app_jar" "$stage/classpath/"
relative=("classpath/$(basename "$app_jar")")
IFS=: read -r -a dependencies <"$classpath_file" || true # no newline at its end
for jar in "${dependencies[@]}"; do
  name=$(basename "$jar")
  [ ! -e "$stage/libs/$name" ] || { echo "two dependencies named $name: Jib would rename one" >&2; exit 1; }
  cp "$jar" "$stage/libs/$name"
  relative+=("libs/$name")
done
touch -d @1 "$stage"/classpath/*.jar "$stage"/libs/*.jar

cp=$(IFS=:; echo "${relative[*]}")
rm -f "$out/kubesched.jsa"
absolute=$(printf '/app/%s\n' "${relative[@]}" | paste -sd:)
# -XX:MaxRAM=1g: a heap under 32 GiB, so compressed pointers, as in any container with less memory than that.
(cd "$stage" && "$java" "$@" -XX:MaxRAM=1g -Xshare:dump -XX:SharedClassListFile="$class_list" \
  -XX:SharedArchiveFile="$out/kubesched.jsa" -cp "$cp") >"$out/../kubesched-cds.log" 2>&1 \
  || { cat "$out/../kubesched-cds.log" >&2; exit 1; }
printf '%s:%s\n' "$cp" "$absolute" >"$out/kubesched-classpath"
echo "app-cds.sh: $(grep -c '^[^#@]' "$class_list") classes listed, archive $(du -h "$out/kubesched.jsa" | cut -f1)"
