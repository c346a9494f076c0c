#!/usr/bin/env bash
# Each way an application picks a fabric8 line, tried as the application would: a throwaway Maven project imports
# a kubesched BOM, depends on scheduler-facade and scheduler-policy (and java-operator-sdk where it says so), and
# Maven's own resolution is checked (which fabric8, which scheduler-fabric8, which SnakeYAML Engine and Jackson
# annotations), then a class of it calls Client.create on that class path:
#   fabric8-7  kubesched-bom-fabric8-7, then java-operator-sdk 5.2.3's BOM and operator-framework: fabric8 7.5.2
#              throughout, scheduler-fabric8 X-fabric8.7, Client.create works;
#   fabric8-8  kubesched-bom: fabric8 8 throughout, scheduler-fabric8 X, Client.create works;
#   mixed      kubesched-bom (line 8) beside operator-framework 5.2.3 and its BOM, the mistake issue 43 started
#              from: Client.create refuses with the ConfigurationException that names the BOM to import.
#
# Usage: scripts/check-boms.sh   (installs the library's artifacts into the local repository first)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -1)
line7=$(echo "$version" | sed 's/\(-SNAPSHOT\)\{0,1\}$/-fabric8.7\1/')
josdk=5.2.3

(cd "$root" && ./mvnw -q -B install -DskipTests -Dmaven.javadoc.skip -Dmaven.source.skip \
  -pl scheduler-bom,scheduler-bom-fabric8-7,scheduler-facade,scheduler-policy,scheduler-fabric8,scheduler-fabric8-7 -am)

# consumer NAME BOM JOSDK(yes|no)
consumer() {
  local name=$1 bom=$2 with_josdk=$3 dir="$work/$1"
  mkdir -p "$dir/src/main/java"
  local josdk_bom='' josdk_dep=''
  if [ "$with_josdk" = yes ]; then
    josdk_bom="<dependency><groupId>io.javaoperatorsdk</groupId><artifactId>operator-framework-bom</artifactId>
      <version>$josdk</version><type>pom</type><scope>import</scope></dependency>"
    josdk_dep="<dependency><groupId>io.javaoperatorsdk</groupId><artifactId>operator-framework</artifactId></dependency>"
  fi
  cat > "$dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId><artifactId>$name</artifactId><version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencyManagement><dependencies>
    <dependency><groupId>io.kubesched</groupId><artifactId>$bom</artifactId><version>$version</version>
      <type>pom</type><scope>import</scope></dependency>
    $josdk_bom
  </dependencies></dependencyManagement>
  <dependencies>
    <dependency><groupId>io.kubesched</groupId><artifactId>scheduler-facade</artifactId></dependency>
    <dependency><groupId>io.kubesched</groupId><artifactId>scheduler-policy</artifactId></dependency>
    $josdk_dep
  </dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.8.1</version></plugin>
  </plugins></build>
</project>
POM
  cat > "$dir/src/main/java/Check.java" <<'JAVA'
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.kubesched.api.ConfigurationException;
import io.kubesched.facade.Client;
import io.kubesched.facade.Options;

/** Creates a client (no request is sent) on this class path: prints OK, or the check's message. */
public class Check {
  public static void main(String[] args) {
    var config = new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build();
    try (var client = Client.create(Options.builder().config(config).build())) {
      System.out.println("OK");
    } catch (ConfigurationException e) {
      System.out.println("REFUSED " + e.getMessage());
    }
  }
}
JAVA
  (cd "$root" && ./mvnw -q -B -f "$dir/pom.xml" compile dependency:list dependency:build-classpath \
    -DoutputFile="$dir/list.txt" -Dmdep.outputFile="$dir/cp.txt" -DincludeScope=runtime)
  java -cp "$dir/target/classes:$(cat "$dir/cp.txt")" Check > "$dir/out.txt" 2>"$dir/err.txt" || { cat "$dir/err.txt" >&2; return 1; }
}

fail() { echo "check-boms: $*" >&2; exit 1; }
has() { grep -qE "$2" "$work/$1/list.txt" || fail "$1: no '$2' among what Maven resolved: $(cat "$work/$1/list.txt")"; }
hasnt() { if grep -E "$2" "$work/$1/list.txt"; then fail "$1: '$2' among what Maven resolved"; fi; }

consumer fabric8-7 kubesched-bom-fabric8-7 yes
has fabric8-7 "io\.fabric8:kubernetes-client:jar:7\.5\.2:"
has fabric8-7 "io\.fabric8:kubernetes-client-api:jar:7\.5\.2:"
hasnt fabric8-7 "io\.fabric8:[a-z-]+:jar:8\."
has fabric8-7 "io\.kubesched:scheduler-fabric8:jar:$line7:"
has fabric8-7 "org\.snakeyaml:snakeyaml-engine:jar:3\."
has fabric8-7 "com\.fasterxml\.jackson\.core:jackson-annotations:jar:2\.22:"
grep -qx OK "$work/fabric8-7/out.txt" || fail "fabric8-7: Client.create said $(cat "$work/fabric8-7/out.txt")"
echo "ok    fabric8-7: kubesched-bom-fabric8-7 with java-operator-sdk $josdk resolves fabric8 7.5.2 and scheduler-fabric8 $line7; Client.create works"

consumer fabric8-8 kubesched-bom no
has fabric8-8 "io\.fabric8:kubernetes-client:jar:8\."
hasnt fabric8-8 "io\.fabric8:[a-z-]+:jar:7\."
has fabric8-8 "io\.kubesched:scheduler-fabric8:jar:$version:"
grep -qx OK "$work/fabric8-8/out.txt" || fail "fabric8-8: Client.create said $(cat "$work/fabric8-8/out.txt")"
echo "ok    fabric8-8: kubesched-bom resolves fabric8 8 and scheduler-fabric8 $version; Client.create works"

consumer mixed kubesched-bom yes
grep -q "^REFUSED .*Import io.fabric8:kubernetes-client-bom:" "$work/mixed/out.txt" \
  || fail "mixed: Client.create did not refuse the mixed class path: $(cat "$work/mixed/out.txt")"
echo "ok    mixed: kubesched-bom beside java-operator-sdk $josdk: $(cut -c1-400 "$work/mixed/out.txt")…"
