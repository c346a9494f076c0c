//go:build tools

// Package tools pins the programs the test cluster and the end-to-end benchmark are built from: go.mod
// fixes their versions, go.sum their contents. cluster.sh builds them with "go build <import path>".
package tools

import (
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
