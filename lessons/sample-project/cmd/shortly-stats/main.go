// shortly-stats prints how many links are stored and how many have expired.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

type link struct {
	URL     string  `json:"url"`
	Expires float64 `json:"expires"`
}

func main() {
	path := "links.json"
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	links, err := loadLinks(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shortly-stats:", err)
		os.Exit(1)
	}
	expired := 0
	for _, l := range links {
		if l.Expires < float64(time.Now().Unix()) {
			expired++
		}
	}
	fmt.Printf("%d links, %d expired\n", len(links), expired)
}

func loadLinks(path string) (map[string]link, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	links := map[string]link{}
	return links, json.Unmarshal(data, &links)
}
