/**
 * What `npm run cluster` runs. docker-compose.yml pins the same versions as image tags, and
 * test/deploy/cluster-alignment.test.ts fails when the two drift apart: bump both together.
 */

/**
 * The Temporal server and its SQL tool, built from the Go module proxy. Newer tags need a newer Go
 * than the machines have (v1.32.x asks for Go >= 1.26.10; Go 1.26.8 is installed); v1.30.1 builds.
 */
export const TEMPORAL_SERVER_VERSION = '1.30.1';

/** The Web UI server (github.com/temporalio/ui-server), the same release as the `temporalio/ui` image. */
export const TEMPORAL_UI_VERSION = '2.34.0';

/** Debian bookworm's PostgreSQL, and the `postgres` image's major version. */
export const POSTGRES_MAJOR = 15;
