/**
 * The socket feed server ({@code strata feed-server}, docs/two-phase.md "Feed protocol"), on
 * Netty: {@link org.strata.ycsb.feed.FeedServer} accepts connections whose newline-delimited
 * records ({@link org.strata.ycsb.feed.FeedFormat}) a {@link org.strata.ycsb.feed.FeedConnection}
 * applies to a dataset in order, lines cut by a {@link org.strata.ycsb.feed.LineFramer}, with
 * bounded memory per server ({@link org.strata.ycsb.feed.FeedLimits}, {@link
 * org.strata.ycsb.feed.InputBudget} for request lines, {@link org.strata.ycsb.feed.ReplyBudget}
 * for replies) and replies written in chunks ({@link org.strata.ycsb.feed.ReplyWriter}); {@link
 * org.strata.ycsb.feed.FeedStats} counts what it did (docs/reliability-feed.md).
 */
package org.strata.ycsb.feed;
