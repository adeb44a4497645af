/**
 * The socket feed server ({@code strata feed-server}, docs/two-phase.md "Feed protocol"), on
 * Netty: {@link org.strata.ycsb.feed.FeedServer} accepts connections whose newline-delimited
 * records ({@link org.strata.ycsb.feed.FeedFormat}) a {@link org.strata.ycsb.feed.FeedConnection}
 * applies to a dataset in order, with bounded memory per server ({@link
 * org.strata.ycsb.feed.FeedLimits}, {@link org.strata.ycsb.feed.ReplyBudget}) and replies written
 * in chunks ({@link org.strata.ycsb.feed.ReplyWriter}); {@link org.strata.ycsb.feed.FeedStats}
 * counts what it did.
 */
package org.strata.ycsb.feed;
