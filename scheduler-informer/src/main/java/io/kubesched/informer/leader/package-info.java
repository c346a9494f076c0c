/**
 * Leader election: the Lease campaign ({@link io.kubesched.informer.leader.LeaderElection} over a {@link
 * io.kubesched.informer.leader.LeaderLock}, with its {@link io.kubesched.informer.leader.LeaderSettings}) and
 * the gate it flips, which lets the scheduling cycle take pods only while this replica leads ({@link
 * io.kubesched.informer.leader.Leadership}).
 */
@NullMarked
package io.kubesched.informer.leader;

import org.jspecify.annotations.NullMarked;
