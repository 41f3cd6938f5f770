package etcdstore

import (
	"context"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Member is one endpoint's answer to Inspect.
type Member struct {
	// Endpoint is as configured.
	Endpoint string
	// Version is the member's etcd version; Err, when set, why it did not
	// answer within DialTimeout.
	Version string
	Err     error
}

// Inspection is what Inspect found of an etcd set-up, for bot doctor.
type Inspection struct {
	Members []Member
	// Keys is how many keys are under the prefix; KeysErr why they could
	// not be counted.
	Keys    int64
	KeysErr error
}

// Inspect asks each endpoint of c for its status (its version), and
// counts the keys under c.Prefix (DefaultPrefix when empty), each within
// c.DialTimeout. It writes nothing. An error is a configuration that does
// not make a client (TLS files).
func Inspect(ctx context.Context, c Config) (Inspection, error) {
	cli, err := dial(ctx, &c)
	if err != nil {
		return Inspection{}, err
	}
	defer cli.Close()
	var in Inspection
	for _, ep := range c.Endpoints {
		m := Member{Endpoint: ep}
		tctx, cancel := context.WithTimeout(ctx, c.DialTimeout)
		st, err := cli.Status(tctx, endpointURL(cli, ep))
		cancel()
		if err != nil {
			m.Err = err
		} else {
			m.Version = st.Version
		}
		in.Members = append(in.Members, m)
	}
	prefix := c.Prefix
	if prefix == "" {
		prefix = DefaultPrefix
	}
	tctx, cancel := context.WithTimeout(ctx, c.DialTimeout)
	defer cancel()
	resp, err := cli.Get(tctx, prefix, clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		in.KeysErr = fmt.Errorf("counting the keys under %s: %w", prefix, err)
	} else {
		in.Keys = resp.Count
	}
	return in, nil
}

// endpointURL is the client's spelling of the configured endpoint ep
// (dial may have put https:// before it).
func endpointURL(cli *clientv3.Client, ep string) string {
	for _, e := range cli.Endpoints() {
		if e == ep || e == "https://"+ep {
			return e
		}
	}
	return ep
}
