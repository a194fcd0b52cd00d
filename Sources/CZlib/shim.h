// The system's zlib (Debian's zlib1g-dev), already linked into trove through async-http-client.
#include <zlib.h>
