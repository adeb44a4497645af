package org.strata.asterixdb;

import java.util.Collections;
import java.util.List;
import org.apache.asterix.common.api.ExtensionId;
import org.apache.asterix.metadata.MetadataManager;
import org.apache.asterix.metadata.MetadataTransactionContext;
import org.apache.asterix.metadata.api.ExtensionMetadataDataset;
import org.apache.asterix.metadata.api.IMetadataExtension;
import org.apache.asterix.metadata.entities.CompactionPolicy;
import org.apache.asterix.metadata.entitytupletranslators.MetadataTupleTranslatorProvider;
import org.apache.asterix.metadata.utils.MetadataConstants;
import org.apache.hyracks.algebricks.common.utils.Pair;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Strata's AsterixDB metadata extension, declared by the configuration section {@value #SECTION}:
 * on the metadata node, after AsterixDB's own metadata bootstrap, it adds one {@code
 * Metadata.CompactionPolicy} row per {@link PolicyRow} that is not there yet (rows survive
 * restarts), so that {@code CREATE DATASET ... WITH {"merge-policy": {"name": "strata-tiering",
 * ...}}} finds the row's factory. The section's other keys are Strata's settings ({@link
 * ExtensionSettings}); each node's {@link StrataNCApplication} reads and checks them at start.
 */
public final class StrataExtension implements IMetadataExtension {
  private static final Logger LOG = LogManager.getLogger(StrataExtension.class);

  /** The configuration section that enables the extension and holds its settings. */
  public static final String SECTION = "extension/org.strata.asterixdb.StrataExtension";

  private static final ExtensionId ID = new ExtensionId("StrataExtension", 0);

  @Override
  public ExtensionId getId() {
    return ID;
  }

  /**
   * Checks the keys AsterixDB hands over (none from an ini file in 0.9.8: the node applications
   * read the section themselves).
   */
  @Override
  public void configure(List<Pair<String, String>> args) {
    ExtensionSettings.parse(args);
  }

  /** Keeps AsterixDB's own metadata tuple translators. */
  @Override
  public MetadataTupleTranslatorProvider getMetadataTupleTranslatorProvider() {
    return null;
  }

  /** Adds no metadata dataset of its own. */
  @SuppressWarnings("rawtypes")
  @Override
  public List<ExtensionMetadataDataset> getExtensionIndexes() {
    return Collections.emptyList();
  }

  /** Adds the compaction policy rows that are missing, in one metadata transaction. */
  @Override
  public void initializeMetadata(INCServiceContext ncServiceCtx) throws HyracksDataException {
    try {
      MetadataTransactionContext tx = MetadataManager.INSTANCE.beginTransaction();
      try {
        int added = 0;
        for (PolicyRow row : PolicyRow.values()) {
          if (MetadataManager.INSTANCE.getCompactionPolicy(tx,
              MetadataConstants.METADATA_DATAVERSE_NAME, row.rowName()) == null) {
            MetadataManager.INSTANCE.addCompactionPolicy(tx, new CompactionPolicy(
                MetadataConstants.METADATA_DATAVERSE_NAME, row.rowName(),
                row.factoryClass().getName()));
            added++;
          }
        }
        MetadataManager.INSTANCE.commitTransaction(tx);
        LOG.info("Strata compaction policies: {} added, {} in all", added,
            PolicyRow.values().length);
      } catch (Exception e) {
        MetadataManager.INSTANCE.abortTransaction(tx);
        throw e;
      }
    } catch (Exception e) {
      throw HyracksDataException.create(e);
    }
  }
}
