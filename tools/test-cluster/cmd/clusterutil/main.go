// Command clusterutil does the small jobs cluster.sh would otherwise need extra tools for.
//
//	clusterutil ports N           print N free loopback TCP ports, one per line
//	clusterutil keygen FILE       write a new 2048-bit RSA private key (PKCS#1 PEM) to FILE
//	clusterutil wait-ready URL TOKEN SECONDS PID
//	                              poll URL (TLS not verified: the server's certificate is self-signed and
//	                              new) with a bearer token until it answers 200 "ok"; fail after SECONDS,
//	                              or as soon as process PID has exited
package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fail("usage: clusterutil ports N | keygen FILE | wait-ready URL TOKEN SECONDS PID")
	}
	switch os.Args[1] {
	case "ports":
		ports(atoi(arg(2)))
	case "keygen":
		keygen(arg(2))
	case "wait-ready":
		waitReady(arg(2), arg(3), atoi(arg(4)), atoi(arg(5)))
	default:
		fail("unknown command " + os.Args[1])
	}
}

func ports(n int) {
	var listeners []net.Listener
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fail("no free port: " + err.Error())
		}
		listeners = append(listeners, l)
		fmt.Println(l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range listeners {
		l.Close()
	}
}

func keygen(file string) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		fail(err.Error())
	}
	block := &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}
	if err := os.WriteFile(file, pem.EncodeToMemory(block), 0o600); err != nil {
		fail(err.Error())
	}
}

func waitReady(url, token string, seconds, pid int) {
	client := &http.Client{
		Timeout:   2 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
	}
	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	last := "no answer yet"
	for time.Now().Before(deadline) {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
			fail(fmt.Sprintf("the server (pid %d) exited before %s was ready", pid, url))
		}
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 && strings.TrimSpace(string(body)) == "ok" {
				return
			}
			last = fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(body)))
		} else {
			last = err.Error()
		}
		time.Sleep(250 * time.Millisecond)
	}
	fail(fmt.Sprintf("%s not ready after %d s; last answer: %s", url, seconds, last))
}

func arg(i int) string {
	if len(os.Args) <= i {
		fail("missing argument " + strconv.Itoa(i))
	}
	return os.Args[i]
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		fail("not a number: " + s)
	}
	return n
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "clusterutil: "+msg)
	os.Exit(1)
}
