// Package etcdtest starts an etcd member inside a test process, on
// loopback, for the tests of the etcd store and of the programs on it.
package etcdtest

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// Start starts one etcd member with its data in dir, serving clients on
// a free loopback port, and returns it with its client endpoint. Its
// logs are discarded; unless fsync is set it does not fsync (a test's
// data need not survive a crash; benchmarks fsync). Close the member
// when done.
func Start(dir string, fsync bool) (*embed.Etcd, string, error) {
	cfg := embed.NewConfig()
	cfg.Dir = dir
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	cfg.UnsafeNoFsync = !fsync
	var urls [2]url.URL
	for i := range urls {
		port, err := FreePort()
		if err != nil {
			return nil, "", err
		}
		urls[i] = url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", port)}
	}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = urls[:1], urls[:1]
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = urls[1:], urls[1:]
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, "", err
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, "", err
	case <-time.After(30 * time.Second):
		e.Close()
		return nil, "", fmt.Errorf("etcd not ready after 30 s")
	}
	return e, urls[0].Host, nil
}

// FreePort returns a loopback port nobody listens on now (embed takes
// URLs, not listeners).
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// StartCluster starts n etcd members forming one cluster, each with its
// data under dir and its ports on loopback, and returns them with their
// client endpoints once every member is ready. Fsync is as for Start.
// Close every member when done.
func StartCluster(dir string, n int, fsync bool) ([]*embed.Etcd, []string, error) {
	cfgs := make([]*embed.Config, n)
	peers := make([]string, n)
	endpoints := make([]string, n)
	for i := range cfgs {
		cfg := embed.NewConfig()
		cfg.Name = fmt.Sprint("m", i)
		cfg.Dir = filepath.Join(dir, cfg.Name)
		cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
		cfg.UnsafeNoFsync = !fsync
		var urls [2]url.URL
		for j := range urls {
			port, err := FreePort()
			if err != nil {
				return nil, nil, err
			}
			urls[j] = url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", port)}
		}
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = urls[:1], urls[:1]
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = urls[1:], urls[1:]
		cfg.InitialClusterToken = "etcdtest"
		cfgs[i] = cfg
		peers[i] = cfg.Name + "=" + urls[1].String()
		endpoints[i] = urls[0].Host
	}
	members := make([]*embed.Etcd, 0, n)
	fail := func(err error) ([]*embed.Etcd, []string, error) {
		for _, e := range members {
			e.Close()
		}
		return nil, nil, err
	}
	for _, cfg := range cfgs {
		cfg.InitialCluster = strings.Join(peers, ",")
		e, err := embed.StartEtcd(cfg)
		if err != nil {
			return fail(err)
		}
		members = append(members, e)
	}
	deadline := time.After(30 * time.Second)
	for _, e := range members {
		select {
		case <-e.Server.ReadyNotify():
		case err := <-e.Err():
			return fail(err)
		case <-deadline:
			return fail(fmt.Errorf("etcd cluster not ready after 30 s"))
		}
	}
	return members, endpoints, nil
}

// Restart starts again a member that Start started and that was closed
// since: on the same data and the same ports, so that its clients find it
// again. Close the new member when done.
func Restart(e *embed.Etcd) (*embed.Etcd, error) {
	cfg := e.Config()
	n, err := embed.StartEtcd(&cfg)
	if err != nil {
		return nil, err
	}
	select {
	case <-n.Server.ReadyNotify():
	case err := <-n.Err():
		n.Close()
		return nil, err
	case <-time.After(30 * time.Second):
		n.Close()
		return nil, fmt.Errorf("etcd not ready after 30 s")
	}
	return n, nil
}
