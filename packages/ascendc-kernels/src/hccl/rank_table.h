// The rank table: CANN's cluster information file (JSON) that HcclCommInitClusterInfo reads.
// Version 1.0 and later name every server of the job and, per server, its devices and the rank
// each holds:
//   {"status": "completed", "version": "1.0", "server_count": "1",
//    "server_list": [{"server_id": "10.0.0.1",
//                     "device": [{"device_id": "0", "device_ip": "192.168.100.1", "rank_id": "0"}]}]}
// Numbers may be written as strings (as CANN's tools write them) or as JSON numbers. A server's
// "host_ip", when given, is where its ranks are reached, else its "server_id", which must then be
// an IPv4 address.
#ifndef ASCENDC_SIM_HCCL_RANK_TABLE_H
#define ASCENDC_SIM_HCCL_RANK_TABLE_H

#include <stdint.h>

#include <string>
#include <vector>

namespace ascendc_sim {
namespace hccl {

struct RankTableEntry {
  int32_t deviceId = 0;
  std::string server;    // the server's server_id
  uint32_t address = 0;  // IPv4, network order: where the server's ranks are reached
};

struct RankTable {
  std::vector<RankTableEntry> ranks;  // by rank id, 0 .. n-1, each once
  uint64_t digest = 0;                // of the file's bytes: the job's identity
};

// Reads the rank table at `path`. False with `*error` naming the file, and the line where the
// file is wrong.
bool ReadRankTable(const char* path, RankTable* table, std::string* error);

}  // namespace hccl
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_HCCL_RANK_TABLE_H
