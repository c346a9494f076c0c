/**
 * The sample's placement policy, written over kubesched's domain model only: {@link
 * io.kubesched.samples.josdk.placement.TeamPacking} packs one team's pods onto few nodes and keeps teams apart.
 */
@NullMarked
package io.kubesched.samples.josdk.placement;

import org.jspecify.annotations.NullMarked;
