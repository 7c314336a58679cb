// Package baseline judges each frame against the server's own recent normal
// and turns a departure from it into an episode with an onset time and its
// causes ranked (snapshot.Onset), and marks the findings that stood through
// the normal as chronic.
//
// Why it is built this way:
//
//   - Robust statistics. Database counters are bursty and heavy-tailed, so a
//     signal's normal is the median of its 10-second means over the last 30
//     minutes, and its spread the MAD of them; a mean and a standard
//     deviation would be pulled by the spikes the server has every minute.
//   - By time, not frames. Captures come every 1 to 10 s and a replay must
//     reach the live verdict: values are folded into buckets of wall time
//     weighted by the seconds each frame stands for, and every hold and wait
//     is a duration.
//   - Fixed size. Each signal keeps 180 float32 buckets of its mean, and of
//     the highest and lowest of its 5-second values (2 KB); the mix signals
//     (statements, users, hosts, routine tools) are capped, the least used
//     evicted. A server costs about 140 KB, and a bucket's statistics are
//     computed once when it closes (by selection, not sorting), not per
//     frame: about 50 us of CPU a frame at 1,000 connections.
//   - Bursts. A server whose normal has bursts (a report every minute) must
//     not make news of each: a value is out only beyond the 95th percentile
//     of the buckets' highest 5-second values (the 5th of their lowest), as
//     well as beyond the median's band. Only an open episode taints the
//     baseline, so the bursts stay in it; the seconds before an onset was
//     confirmed are taken out when it is.
//   - Few false onsets. Sixty signals compared at a few sigmas would fire on
//     a healthy server every minute, so no single signal opens an episode: a
//     cause class does, when its signature holds (a key signal and the
//     related ones moving together, in the direction that matters) for a
//     minimum time. Every signal has an absolute floor and a relative one, so
//     a x10 change of 0.1/s is not news.
//   - The baseline does not learn the incident: buckets while a class is
//     pending or an episode is open are left out (frozen). A step that lasts
//     longer than AcceptAfter is taken as the new normal, so a permanent
//     change does not stay an incident forever; a slow drift moves the
//     median with it and never departs from it (step versus drift).
//   - Warm-up and restarts. With less than WarmUp of normal nothing is
//     judged and the frame says "no baseline yet (N min of history)"; a
//     server restart starts the baseline afresh, as counters and caches do.
package baseline
