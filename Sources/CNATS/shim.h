// The NATS C client (libnats 3.4, Debian libnats-dev): connections, JetStream and its key-value store.
#include <nats/nats.h>
