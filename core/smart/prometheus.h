#pragma once

#include <string>
#include <vector>

#include "core/smart/health_json.h"

namespace ssdk::smart {

// Prometheus text exposition format 0.0.4 for every drive, for node_exporter's textfile
// collector or an HTTP scrape. Metric families (each with HELP and TYPE, samples labelled
// device="/dev/sda"):
//   ssdkeeper_drive_info{device,model,serial,firmware,protocol} 1
//   ssdkeeper_health_verdict{device}          0 good, 1 caution, 2 bad, 3 unknown
//   ssdkeeper_health_status{device,verdict}   1 for the current verdict, 0 for the others
//   ssdkeeper_temperature_celsius             gauge
//   ssdkeeper_life_used_ratio                 gauge, 0..1 (may exceed 1)
//   ssdkeeper_available_spare_ratio           gauge, 0..1
//   ssdkeeper_host_written_bytes_total        counter
//   ssdkeeper_media_errors_total              counter (NVMe media errors, SCSI uncorrected)
//   ssdkeeper_power_on_seconds_total          counter (from power-on hours)
// A value that is unknown for a drive is left out, never written as 0.
std::string formatPrometheus(const std::vector<DriveHealth>& drives);

// A label value escaped for the exposition format (\\, \", \n).
std::string escapeLabelValue(const std::string& value);

} // namespace ssdk::smart
