#include "search/ranking.h"

#include <cmath>

namespace lore::search {

double Idf(int64_t records, int64_t df) {
  double n = static_cast<double>(records), d = static_cast<double>(df);
  return std::log(1.0 + (n - d + 0.5) / (d + 0.5));
}

double Bm25Term(double idf, int tf, int length, double average_length, const RankingParams& p) {
  if (tf <= 0) return 0;
  double norm = average_length > 0 ? static_cast<double>(length) / average_length : 1.0;
  double t = static_cast<double>(tf);
  return idf * t * (p.k1 + 1) / (t + p.k1 * (1 - p.b + p.b * norm));
}

double ContextShare(int distance, const RankingParams& p, bool session_log) {
  int d = std::abs(distance);
  if (d < 1 || d > p.context_window) return 0;
  double direction = distance > 0 ? 1 + p.context_forward : 1 - p.context_forward;
  double weight = session_log ? p.log_context_weight : p.context_weight;
  return weight * direction * std::pow(p.context_decay, d - 1);
}

double SessionShare(double best, const RankingParams& p) {
  return p.session ? p.session_weight * best : 0;
}

}  // namespace lore::search
