#!/bin/sh
# Installs the Maven distribution that ./mvnw runs, fetched through the mvn on the PATH, for a machine where
# ./mvnw cannot fetch it itself (MVNW_REPOURL unset, or no direct access to a Maven repository). Any Maven 3
# will do: it only downloads the archive, from the repositories its settings.xml names (mirrors included).
#
# The archive is checked against distributionSha256Sum and unpacked where ./mvnw (Apache Maven Wrapper 3.3.x)
# looks for it: ${MAVEN_USER_HOME:-~/.m2}/wrapper/dists/<name>/<hash of the distribution URL>, the hash being
# Java's String.hashCode in hex, as the wrapper computes it. Does nothing when ./mvnw already has it.
#
# Usage: scripts/mvnw-install.sh   (then ./mvnw as usual)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
props="$root/.mvn/wrapper/maven-wrapper.properties"
prop() { sed -n "s/^$1=//p" "$props" | tr -d '[:space:]'; }
url=$(prop distributionUrl)
sha=$(prop distributionSha256Sum)
pattern=/org/apache/maven/
[ -z "${MVNW_REPOURL:-}" ] || url="$MVNW_REPOURL$pattern${url#*"$pattern"}"
name=${url##*/}                                    # apache-maven-3.9.16-bin.zip
main=${name%.zip}
main=${main%-bin}                                  # apache-maven-3.9.16
version=${main#apache-maven-}
case "$name" in apache-maven-*-bin.zip) ;; *) echo "mvnw-install: unexpected distributionUrl $url" >&2; exit 1 ;; esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/Hash.java" <<'JAVA'
public class Hash {
  public static void main(String[] args) {
    System.out.println(Integer.toHexString(args[0].hashCode()));
  }
}
JAVA
home="${MAVEN_USER_HOME:-$HOME/.m2}/wrapper/dists/$main/$(java "$tmp/Hash.java" "$url")"
if [ -d "$home" ]; then
  echo "mvnw-install: Maven $version is already installed for ./mvnw ($home)" >&2
  exit 0
fi

command -v mvn >/dev/null 2>&1 || {
  echo "mvnw-install: no mvn on the PATH. Install any Maven 3, or set MVNW_REPOURL to a Maven repository" >&2
  echo "              base URL (Maven Central's, or a mirror of it) and run ./mvnw." >&2
  exit 1
}
command -v unzip >/dev/null 2>&1 || { echo "mvnw-install: unzip is needed" >&2; exit 1; }

echo "mvnw-install: fetching Maven $version through the mvn on the PATH" >&2
(cd "$tmp" && mvn -q -B -Dstyle.color=never org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
  -Dartifact="org.apache.maven:apache-maven:$version:zip:bin" -DoutputDirectory="$tmp" >&2)
if [ -n "$sha" ]; then
  if command -v sha256sum >/dev/null 2>&1; then
    echo "$sha  $tmp/$name" | sha256sum -c - >/dev/null
  else
    echo "$sha  $tmp/$name" | shasum -a 256 -c - >/dev/null
  fi || { echo "mvnw-install: $name does not match distributionSha256Sum" >&2; exit 1; }
fi
unzip -q "$tmp/$name" -d "$tmp"
printf '%s\n' "$url" >"$tmp/$main/mvnw.url"
mkdir -p "${home%/*}"
mv "$tmp/$main" "$home"
echo "mvnw-install: installed Maven $version for ./mvnw in $home" >&2
