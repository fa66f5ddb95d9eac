/// <reference types="astro/client" />

declare namespace App {
  /** What the server hands to on-demand pages (built in src/server/routes.ts). */
  interface Locals {
    /** The visitor's address as the server derived it (see src/server/http/client-ip.ts). */
    clientIp: string;
    /**
     * The record the page shows, looked up in-process before rendering: the visitor's on
     * `/`, the asked address's on `/lookup/{ip}` (null when that is not an address).
     */
    lookup: import('./lib/record.ts').LookupResponse | null;
    /** On `/lookup/{ip}`: the `{ip}` part as asked; on `/networks`, the search (`?q=`). */
    query?: string;
    /** On `/AS{n}`: the network, or why there is none (src/server/handlers/asn-api.ts). */
    network?: import('./lib/network-record.ts').NetworkPage;
    /** On `/networks`: the largest networks and the search; undefined when the network data is unavailable. */
    networks?: import('./lib/network-record.ts').NetworkDirectory;
    /**
     * On a page shared caches may keep: what it shows depends on its URL and on this only
     * (the data's generation), so the server may keep its answer (src/server/shell/rendered-answer.ts).
     */
    cacheKey?: string;
    /** Runtime settings for the islands (tiles, STUN, IPv4/IPv6 echo URLs). */
    clientConfig: import('./lib/client-config.ts').ClientConfig;
  }
}
